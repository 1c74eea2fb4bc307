package leaving

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsdialog"
)

// ErrLoadAnew ends a navigation whose page was stopped for its dialogs
// without end while the navigation waited on it (Past): the navigation
// stopped with it, and runs again in the tab's new renderer.
var ErrLoadAnew = errors.New("the renderer of the page being left was stopped: navigate again")

// Count is what one navigation knows of the dialogs it left while it ran.
type Count struct {
	mu   sync.Mutex
	left int // dialogs answered to leave the page
	// stopped: the renderer of a page that opened dialogs without end was
	// stopped.
	stopped bool
}

// Past closes a dialog of the page a navigation is leaving (see leave),
// noting it (note), and reports whether it did: one the page the navigation
// arrived at opens (arrived: a new document came) is its answer's to
// report. One more in a row than endlessDialogs stops the renderer (see
// All), and with it the navigation, which again (ErrLoadAnew) ends. A
// dialog the browser takes no answer for ends the navigation with wedged.
func Past(ctx context.Context, t Tab, d *jsdialog.Dialog, arrived bool, c *Count,
	note func(*feedback.Dialog), again context.CancelCauseFunc) bool {
	if d.Type != "beforeunload" && arrived {
		return false
	}
	if d.Type == "beforeunload" && t.Persons() {
		// The person's unsaved work: the navigation waits behind the
		// prompt, which the answer shows, for handleDialog to decide.
		return false
	}
	c.mu.Lock()
	c.left++
	n, stopped := c.left, c.stopped
	c.stopped = c.stopped || n > endlessDialogs
	c.mu.Unlock()
	if n > endlessDialogs {
		if stopped {
			return false
		}
		stopRenderer(ctx, t)
		note(&feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160),
			Closed: fmt.Sprintf("dismissed, and the page opened another each time (%d): its renderer was stopped to leave it", n)})
		again(ErrLoadAnew)
		return true
	}
	closed, err := leave(ctx, t, d)
	if betweenDocuments(err) {
		again(wedged(d))
		return false
	}
	if err != nil {
		return false
	}
	note(closed)
	return true
}

// wedged is the failure of a navigation whose page opened a dialog as the
// new document began to commit into the same renderer (Chrome's
// RenderDocument, which the browsers cdpmcp launches run without): the
// commit waits for the dialog, and Chrome takes no answer for it, no stop
// and no crash from the tab's session until the commit is done. Only
// closing the tab ends it.
func wedged(d *jsdialog.Dialog) error {
	return &failure.Error{Code: failure.CodeNavigation,
		Msg: fmt.Sprintf("the page opened a dialog (%s %q) just as the navigation began to load the next page into it: the browser holds both and takes no answer or stop for this tab",
			d.Type, feedback.Truncate(d.Message, 80)),
		Hint: "close this tab (closePage) and open the address in a new one (newPage)"}
}

// betweenDocuments reports whether err is the browser's answer to a command
// sent while the page's session had no active page: a navigation was
// committing, or waiting to.
func betweenDocuments(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Not attached to an active page")
}
