package cdpclient

import (
	"context"
	"sync"

	"github.com/mafredri/cdp/protocol/page"
)

// maxPrepared bounds how many frames' worlds prepareWorlds checks at once.
const maxPrepared = 40

// prepareWorlds checks the worlds of the page's frames other than the main one
// for the page model (installing it where missing, as world does), all at
// once and beside what the caller does meanwhile: a snapshot walking the main
// frame, which finds its frames' ids only after, then finds their worlds
// ready. It returns a func that waits until the checks are done.
func (p *Page) prepareWorlds(ctx context.Context) (wait func()) {
	keys := p.worlds.Unchecked(frameKey{Frame: p.hist.Main()}, maxPrepared)
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Go(func() { _, _ = p.world(ctx, k) })
	}
	return wg.Wait
}

// frameTree asks, beside what the caller does meanwhile, which frames each
// frame of the page shows (Page.getFrameTree), when the page has frames
// besides the main one. The func it returns waits for the answer: child
// frame ids by parent frame id, nil without frames or on failure.
func (p *Page) frameTree(ctx context.Context) (wait func() map[string][]string) {
	if !p.worlds.HasOthers(frameKey{Frame: p.hist.Main()}) {
		return func() map[string][]string { return nil }
	}
	done := make(chan map[string][]string, 1)
	go func() {
		r, err := p.c.Page.GetFrameTree(ctx)
		if err != nil {
			done <- nil
			return
		}
		tree := map[string][]string{}
		var add func(t page.FrameTree)
		add = func(t page.FrameTree) {
			for _, c := range t.ChildFrames {
				tree[string(t.Frame.ID)] = append(tree[string(t.Frame.ID)], string(c.Frame.ID))
				add(c)
			}
		}
		add(r.FrameTree)
		done <- tree
	}()
	var tree map[string][]string
	got := false
	return func() map[string][]string {
		if !got {
			tree, got = <-done, true
		}
		return tree
	}
}
