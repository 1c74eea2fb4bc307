package cdpclient

import (
	"context"
	"time"

	"github.com/mafredri/cdp/protocol/runtime"
)

const (
	// loadSettle bounds how long an action waits for a navigation it started
	// to load.
	loadSettle = 10 * time.Second
	// requestSettle bounds how long an action waits for the requests it
	// issued; the ones still open then are reported as pending.
	requestSettle = 2 * time.Second
	// maxQuietMs bounds the wait for the DOM to go quiet after an action.
	maxQuietMs = 300
)

// settle waits for what an action started, never a fixed sleep: a navigation's
// load (a deadline of loadSettle) and the requests issued since mark (a deadline
// of requestSettle) and tabs it opened (to be set up, within loadSettle).
// It returns at once when the action started nothing; a page
// that becomes unusable (a dialog, a crash) ends the wait.
func (p *Page) settle(ctx context.Context, mark, pages int, nav navMark) {
	p.barrier(ctx)
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, loadSettle)
	defer cancel()
	for {
		ch := p.watch()
		loading, requests := p.unsettled(mark, nav)
		opening := p.navMark().windowOpens-nav.windowOpens > p.bc.Seq()-pages
		// A tab the page asked to open is waited for as a load is (a busy
		// machine sets it up slowly); requests only for requestSettle.
		if !loading && !opening && (requests == 0 || time.Since(start) > requestSettle) {
			return
		}
		t := time.NewTimer(20 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-ch:
		case <-p.bc.arrived():
		case <-t.C: // requests finish without a page state change
		}
		t.Stop()
	}
}

// barrierWait bounds the round trip of barrier: a page whose script is stuck does
// not answer, and the action's own wait has dealt with that already.
const barrierWait = 250 * time.Millisecond

// barrier makes one round trip to the page's renderer so that the events it sent
// before answering have arrived: a request a click handler started is reported
// by the renderer after the click itself was acknowledged.
func (p *Page) barrier(ctx context.Context) {
	if p.usable() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, barrierWait)
	defer cancel()
	_, _ = p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("0").SetSilent(true))
}

// unsettled reports whether a document the action started is still loading, and
// how many of its requests have no answer yet.
func (p *Page) unsettled(mark int, nav navMark) (loading bool, requests int) {
	if p.usable() != nil {
		return false, 0 // a dialog, crash or close ends the wait
	}
	p.mu.Lock()
	// A document the action started that has not loaded, or a navigation it
	// asked for that has not finished (it may yet fail or be refused).
	loading = p.docs > nav.docs && !p.lifecycle["load"] ||
		(p.requested > nav.requested || p.loads > nav.loads) && p.loading
	p.mu.Unlock()
	return loading, p.logs.Pending(mark) + int(p.paused.Load())
}
