package cdpclient

import (
	"context"
	"time"

	"github.com/mafredri/cdp/protocol/runtime"
)

// settleCap bounds how long an action waits for what it started.
const settleCap = 5 * time.Second

// settle waits for what an action started, never a fixed sleep: a navigation's
// load and the requests issued since mark. It returns at once when the action
// started nothing. The wait is a deadline of settleCap (or ctx, if sooner).
func (p *Page) settle(ctx context.Context, mark int, nav navMark) {
	p.barrier(ctx)
	ctx, cancel := context.WithTimeout(ctx, settleCap)
	defer cancel()
	for {
		ch := p.watch()
		if p.settled(mark, nav) {
			return
		}
		t := time.NewTimer(20 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-ch:
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

func (p *Page) settled(mark int, nav navMark) bool {
	if p.usable() != nil {
		return true // a dialog, crash or close ends the wait
	}
	p.mu.Lock()
	// A document the action started that has not loaded, or a navigation it
	// asked for that has not finished (it may yet fail or be refused).
	loading := p.docs > nav.docs && !p.lifecycle["load"] ||
		(p.requested > nav.requested || p.loads > nav.loads) && p.loading
	p.mu.Unlock()
	return !loading && p.logs.Pending(mark) == 0 && p.paused.Load() == 0
}
