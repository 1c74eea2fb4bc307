package cdpclient

import (
	"context"
	"fmt"
	"time"
)

// A tab the browser already had when cdpmcp attached can be held: a
// JavaScript dialog is open in it (one a cdpmcp that was killed left
// unanswered, or the person's own), its renderer waits for the answer and
// answers no DevTools call meanwhile, and this browser does not hand a dialog
// already open to a new DevTools connection (Page.enable does not announce
// it, Page.handleJavaScriptDialog says none is showing). Its set-up would wait
// until the dialog is answered: rather than leave the tab out, it is listed
// after heldAfter, and calls on it say why it does not answer. Its set-up
// goes on without a deadline, and the tab works as soon as it answers (the
// person answered the dialog in their window).

// heldAfter is how long attaching waits for the existing tabs' set-up before
// listing those not set up yet as held. A loaded machine's slow tab is
// listed a moment early; a call on it waits heldWait for it first.
const heldAfter = 5 * time.Second

// heldWait is how long a call on a held tab waits for it to answer before it
// fails saying why it does not (a tab on a loaded machine only slow to set up
// answers within it).
const heldWait = 3 * time.Second

// listHeld lists an existing tab whose set-up has not finished (see above).
func (b *Browser) listHeld(p *Page) {
	b.mu.Lock()
	setUp := b.pages[p.targetID] == p
	b.mu.Unlock()
	if !setUp || p.isDone() {
		return // gone, failed, or ready (and listed) meanwhile
	}
	p.held.Store(true)
	p.announce()
	p.bc.add(p)
	if p.isDone() {
		p.unheld(p.initErr) // its set-up ended meanwhile, before it was held
	}
}

// announce names the page and shows it to its context's watchers, once: as
// its set-up reaches that point, or when it is listed held before.
func (p *Page) announce() { p.announceOnce.Do(func() { p.bc.announce(p) }) }

// isDone reports whether the page's set-up has ended, well or not.
func (p *Page) isDone() bool {
	select {
	case <-p.ready:
		return true
	default:
		return false
	}
}

// unheld ends a held tab's wait: its set-up finished.
func (p *Page) unheld(err error) {
	if !p.held.Swap(false) {
		return
	}
	if err != nil {
		p.bc.remove(p)
	}
	p.changed.Notify()
}

// Held reports whether the tab does not answer yet, held by a dialog
// cdpmcp cannot see (see above).
func (p *Page) Held() bool { return p.held.Load() }

// heldError is why a held tab does not answer.
func (p *Page) heldError() error {
	return newError(CodeObscured,
		fmt.Sprintf("answer it in the browser window (then call again: the tab works as soon as it answers), or closePage %s or switchPage to another tab", p.ID),
		"tab %s does not answer: a JavaScript dialog is most likely open in it, left unanswered by an earlier session or opened before cdpmcp attached; "+
			"the browser does not hand a dialog already open to a new connection, so handleDialog cannot answer it", p.ID)
}

// waitHeld gives a held tab heldWait (within ctx) to answer.
func (p *Page) waitHeld(ctx context.Context) {
	if !p.held.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, heldWait)
	defer cancel()
	select {
	case <-p.ready:
	case <-ctx.Done():
	}
}
