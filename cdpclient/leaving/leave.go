// Package leaving is how a navigation (navigate, reload, back, forward)
// leaves a page past its dialogs, as a person who asked to go elsewhere
// would, and how a page that opens dialogs without end is kept from holding
// the tab: its renderer is stopped. It has no browser of its own: the core
// hands it a Tab.
package leaving

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsdialog"
)

// Tab is what leaving needs of a page: its dialog, an answer to it, the
// page's change signal, and the calls that stop its renderer.
type Tab interface {
	// Dialog is the dialog that blocks the page, nil when none does.
	Dialog() *jsdialog.Dialog
	// Answer presses OK (accept) or Cancel on the open dialog.
	Answer(ctx context.Context, accept bool) error
	// Changed is closed at the page's next change of state.
	Changed() <-chan struct{}
	// StopLoading cancels the navigation in flight (Page.stopLoading).
	StopLoading(ctx context.Context) error
	// Crash ends the page's renderer (Page.crash).
	Crash(ctx context.Context) error
	// SetStopping notes that the renderer is being stopped on purpose;
	// IsStopping reports whether it is and is not gone yet.
	SetStopping()
	IsStopping() bool
	// Name names the page in logs.
	Name() string
	// Persons reports whether the tab is a person's own (in the default
	// context of a browser cdpmcp attached to): a "leave site?" prompt
	// there guards their unsaved work, and is theirs to answer.
	Persons() bool
}

// Dialogs without end: a page whose script opens the next dialog as soon as
// one is answered never lets its renderer take a command (a navigation, a
// script's end) between them.
const (
	// dialogGap is how long after an answer a new dialog counts as the next
	// of a loop.
	dialogGap = 500 * time.Millisecond
	// endlessDialogs is how many in a row make a loop.
	endlessDialogs = 3
)

// leave closes a dialog that stands between a navigation (or closing the tab)
// and leaving the page, as a person who asked to go elsewhere would: a "leave
// site?" prompt is accepted, anything else dismissed.
func leave(ctx context.Context, t Tab, d *jsdialog.Dialog) (*feedback.Dialog, error) {
	accept := d.Type == "beforeunload"
	if err := t.Answer(ctx, accept); err != nil && t.Dialog() != nil {
		return nil, err
	}
	how := "dismissed"
	if accept {
		how = "accepted"
	}
	return &feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160), Closed: how}, nil
}

// All closes every dialog that stands between a navigation and leaving the
// page (see leave). A page that opens dialogs without end has its renderer
// stopped, as closing the tab would: the navigation loads in a new one, and
// endless reports it.
func All(ctx context.Context, t Tab) (closed *feedback.Dialog, endless bool, err error) {
	for n := 0; ; n++ {
		d := t.Dialog()
		if d == nil {
			return closed, false, nil
		}
		if n == endlessDialogs {
			stopRenderer(ctx, t)
			closed.Closed += fmt.Sprintf(", and the page opened another each time (%d): its renderer was stopped to leave it", n)
			return closed, true, nil
		}
		if closed, err = leave(ctx, t, d); err != nil {
			return nil, false, err
		}
		waitForDialog(ctx, t, dialogGap)
	}
}

// waitForDialog waits (at most d) for a dialog to open.
func waitForDialog(ctx context.Context, t Tab, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	for {
		ch := t.Changed()
		if t.Dialog() != nil {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}

// Until waits, at most d, for cond to hold (a navigation the answer to a
// "leave site?" prompt let go on to begin), looking again at each change of
// the tab; it returns ctx's error if ctx ends first, nil otherwise.
func Until(ctx context.Context, t Tab, d time.Duration, cond func() bool) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for ch := t.Changed(); !cond(); ch = t.Changed() {
		select {
		case <-ch:
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
