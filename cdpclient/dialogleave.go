package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// A navigation (navigate, reload, back, forward) leaves the page past its
// dialogs, as a person who asked to go elsewhere would, and a page that
// opens dialogs without end cannot hold the tab.

// leave closes a dialog that stands between a navigation (or closing the tab)
// and leaving the page, as a person who asked to go elsewhere would: a "leave
// site?" prompt is accepted, anything else dismissed.
func (p *Page) leave(ctx context.Context, d *Dialog) (*feedback.Dialog, error) {
	accept := d.Type == "beforeunload"
	if err := p.answerDialog(ctx, accept, ""); err != nil && p.Dialog() != nil {
		return nil, err
	}
	how := "dismissed"
	if accept {
		how = "accepted"
	}
	return &feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160), Closed: how}, nil
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

// leaveDialogs closes every dialog that stands between a navigation and
// leaving the page (see leave). A page that opens dialogs without end has its
// renderer stopped, as closing the tab would: the navigation loads in a new
// one, and endless reports it.
func (p *Page) leaveDialogs(ctx context.Context) (closed *feedback.Dialog, endless bool, err error) {
	for n := 0; ; n++ {
		d := p.Dialog()
		if d == nil {
			return closed, false, nil
		}
		if n == endlessDialogs {
			p.stopRenderer(ctx)
			closed.Closed += fmt.Sprintf(", and the page opened another each time (%d): its renderer was stopped to leave it", n)
			return closed, true, nil
		}
		if closed, err = p.leave(ctx, d); err != nil {
			return nil, false, err
		}
		p.waitForDialog(ctx, dialogGap)
	}
}

// waitForDialog waits (at most d) for a dialog to open.
func (p *Page) waitForDialog(ctx context.Context, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	for {
		ch := p.changed.watch()
		if p.Dialog() != nil {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}

// stopRenderer ends the renderer of a page held by dialogs without end
// (Page.crash: the page's own process, which takes no other command), and
// waits for it to be gone. The tab stays, with its history: a navigation
// gives it a new renderer.
func (p *Page) stopRenderer(ctx context.Context) {
	p.dialogs.SetStopping()
	// A navigation in flight holds back every command for the renderer until
	// it commits, which the renderer, held by its dialogs, never lets it do:
	// the browser cancels it first (it runs no page code to do so).
	stopCtx, cancelStop := context.WithTimeout(context.WithoutCancel(ctx), cdpCallTimeout)
	_ = p.c.Page.StopLoading(stopCtx)
	cancelStop()
	crashCtx, cancelCrash := context.WithTimeout(context.WithoutCancel(ctx), cdpCallTimeout)
	go func() {
		defer cancelCrash()
		p.crashRenderer(crashCtx)
	}()
	ctx, cancel := context.WithTimeout(ctx, cdpCallTimeout)
	defer cancel()
	for {
		ch := p.changed.watch()
		if !p.dialogs.IsStopping() {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			slog.Warn("the renderer of a page that opens dialogs without end did not stop", "page", p.ID)
			return
		}
	}
}

// crashRenderer sends Page.crash, which the renderer's end answers. While a
// navigation commits, the page's session has no page to crash for a moment
// ("Not attached to an active page"): it asks again until it has, or the
// renderer is gone.
func (p *Page) crashRenderer(ctx context.Context) {
	for {
		_, err := rawCall(ctx, p.s.conn, "Page.crash", nil)
		if !betweenDocuments(err) {
			return
		}
		slog.Debug("the page to stop is between documents: asking again", "page", p.ID)
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
		if !p.dialogs.IsStopping() {
			return
		}
	}
}

// errLoadAnew ends a navigation whose page was stopped for its dialogs
// without end while the navigation waited on it (leavePast): the navigation
// stopped with it, and runs again in the tab's new renderer.
var errLoadAnew = errors.New("the renderer of the page being left was stopped: navigate again")

// leavePast closes a dialog of the page a navigation is leaving (see leave),
// noting it in the observation, and reports whether it did: one the page the
// navigation arrived at opens is its answer's to report. One more in a row
// than endlessDialogs stops the renderer (see leaveDialogs), and with it the
// navigation, which again (errLoadAnew) ends. A dialog the browser takes no
// answer for ends the navigation with wedged.
func (p *Page) leavePast(ctx context.Context, d *Dialog, o *observation, again context.CancelCauseFunc) bool {
	if d.Type != "beforeunload" && p.hist.Mark().Docs > o.nav.Docs {
		return false
	}
	o.mu.Lock()
	o.leftDialogs++
	n, stopped := o.leftDialogs, o.stoppedRenderer
	o.stoppedRenderer = o.stoppedRenderer || n > endlessDialogs
	o.mu.Unlock()
	if n > endlessDialogs {
		if stopped {
			return false
		}
		p.stopRenderer(ctx)
		o.setDialogClosed(&feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160),
			Closed: fmt.Sprintf("dismissed, and the page opened another each time (%d): its renderer was stopped to leave it", n)})
		again(errLoadAnew)
		return true
	}
	closed, err := p.leave(ctx, d)
	if betweenDocuments(err) {
		again(wedged(d))
		return false
	}
	if err != nil {
		return false
	}
	o.setDialogClosed(closed)
	return true
}

// wedged is the failure of a navigation whose page opened a dialog as the
// new document began to commit into the same renderer (Chrome's
// RenderDocument, which the browsers cdpmcp launches run without): the
// commit waits for the dialog, and Chrome takes no answer for it, no stop
// and no crash from the tab's session until the commit is done. Only
// closing the tab ends it.
func wedged(d *Dialog) error {
	return &Error{Code: CodeNavigation,
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
