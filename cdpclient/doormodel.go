package cdpclient

import (
	"context"

	"github.com/mafredri/cdp/protocol/page"
)

// What the door gives the page model (cdpclient/pagemodel), which walks the
// page frame by frame and hands out the refs the core resolves: a frame to
// walk (Frame), its isolated world (Door.InFrame, where World.HandOutRefs
// records the refs it hands out), the frame an <iframe> shows (World.Child)
// and the frame a ref lives in (Door.RefFrame).

// MaxFrameDepth bounds how many frames deep the page model descends: no
// deeper than the core locates a frame's elements (frameBoxOf).
const MaxFrameDepth = maxFrameDepth

// Frame is one frame of the page, in the session that hosts its documents.
// The zero Frame is the main frame.
type Frame struct{ key frameKey }

// InFrame runs fn in the frame's isolated world, with the page model
// installed, as World does for the main frame. Call it inside Do or DoLong.
func (d Door) InFrame(ctx context.Context, f Frame, fn func(*World) error) error {
	key := f.key
	if key == (frameKey{}) {
		key.frame = page.FrameID(d.MainFrame())
	}
	return d.p.withWorld(ctx, key, func(w *worldIn) error { return fn(&World{p: d.p, w: w, key: key}) })
}

// Child is the frame an <iframe> of the world's frame shows, by the id the
// browser gives it (DOM.describeNode's frameId): in a session of its own when
// it runs out of process, else in the world's.
func (w *World) Child(id page.FrameID) Frame {
	if f := w.p.frameSessionFor(id); f != nil {
		return Frame{frameKey{session: f.s.id, frame: id}}
	}
	return Frame{frameKey{session: w.key.session, frame: id}}
}

// RefFrame is the number of a ref the page handed out and the frame it
// lives in (an *ArgError for a malformed ref, NOT_FOUND for one never handed
// out).
func (d Door) RefFrame(ref string) (int, Frame, error) {
	n, k, err := d.p.refFrame(ref)
	return n, Frame{k}, err
}
