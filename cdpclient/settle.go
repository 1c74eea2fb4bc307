package cdpclient

import (
	"context"
	"time"
)

// settleCap bounds how long an action waits for what it started.
const settleCap = 5 * time.Second

// settle waits for what an action started, never a fixed sleep: a navigation's
// load and the requests issued since mark. It returns at once when the action
// started nothing. The wait is a deadline of settleCap (or ctx, if sooner).
func (p *Page) settle(ctx context.Context, mark int, nav navMark) {
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
