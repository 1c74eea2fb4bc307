package cdpclient

import (
	"context"
	"sync"
)

// maxPrepared bounds how many frames' worlds prepareWorlds checks at once.
const maxPrepared = 40

// unchecked lists the frames, other than main, whose isolated world is known
// (the browser reported it) but not yet checked for the page model (at most
// n of them).
func (ws *worlds) unchecked(main frameKey, n int) []frameKey {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var out []frameKey
	for k, id := range ws.byFrame {
		if k != main && !ws.installed[id] && len(out) < n {
			out = append(out, k)
		}
	}
	return out
}

// prepareWorlds checks the worlds of the page's frames other than the main one
// for the page model (installing it where missing, as world does), all at
// once and beside what the caller does meanwhile: a snapshot walking the main
// frame, which finds its frames' ids only after, then finds their worlds
// ready. It returns a func that waits until the checks are done.
func (p *Page) prepareWorlds(ctx context.Context) (wait func()) {
	keys := p.worlds.unchecked(frameKey{frame: p.hist.main()}, maxPrepared)
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Go(func() { _, _ = p.world(ctx, k) })
	}
	return wg.Wait
}
