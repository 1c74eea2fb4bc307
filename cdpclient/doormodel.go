package cdpclient

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/hittest"
	"github.com/mafredri/cdp/protocol/page"
)

// What the door gives the page model (cdpclient/pagemodel), which walks the
// page frame by frame and hands out the refs the core resolves: a frame to
// walk (Frame), its isolated world (FrameDoor.In, where World.HandOutRefs
// records the refs it hands out), the frame an <iframe> shows (World.Child)
// and the frame a ref lives in (FrameDoor.Ref).

// MaxFrameDepth bounds how many frames deep the page model descends: no
// deeper than the core locates a frame's elements (frameBoxOf).
const MaxFrameDepth = hittest.MaxFrameDepth

// FrameDoor is the page's frames as the door gives them (Door.Frames): the
// main frame (its id, a load in it, its viewport), a frame's world, the
// frame a ref lives in and the worlds of the frames that hold refs.
type FrameDoor struct{ p *Page }

// Frames is the door's part for the page's frames.
func (d Door) Frames() FrameDoor { return FrameDoor(d) }

// Main is the id of the page's main frame.
func (fd FrameDoor) Main() string {
	return string(fd.p.hist.Main())
}

// Load navigates the main frame to url inside a ModeNavigate fn and waits
// for until.
func (fd FrameDoor) Load(ctx context.Context, url string, until WaitUntil) error {
	event, err := until.lifecycleEvent()
	if err != nil {
		return err
	}
	return fd.p.navigate(ctx, url, event)
}

// Viewport is the tab's viewport in CSS pixels.
func (fd FrameDoor) Viewport(ctx context.Context) (w, h float64, err error) {
	m, err := fd.p.c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("layout metrics: %w", err)
	}
	return float64(m.CSSLayoutViewport.ClientWidth), float64(m.CSSLayoutViewport.ClientHeight), nil
}

// Frame is one frame of the page, in the session that hosts its documents.
// The zero Frame is the main frame.
type Frame struct{ key frameKey }

// In runs fn in the frame's isolated world, with the page model installed,
// as Door.World does for the main frame. Call it inside Door.Run.
func (fd FrameDoor) In(ctx context.Context, f Frame, fn func(*World) error) error {
	key := f.key
	if key == (frameKey{}) {
		key.Frame = page.FrameID(fd.Main())
	}
	return fd.p.withWorld(ctx, key, func(w *worldIn) error { return fn(&World{p: fd.p, w: w, key: key}) })
}

// Child is the frame an <iframe> of the world's frame shows, by the id the
// browser gives it (DOM.describeNode's frameId): in a session of its own when
// it runs out of process, else in the world's.
func (w *World) Child(id page.FrameID) Frame {
	if f := w.p.children.hosting(id); f != nil {
		return Frame{frameKey{Session: f.s.id, Frame: id}}
	}
	return Frame{frameKey{Session: w.key.Session, Frame: id}}
}

// Ref is the number of a ref the page handed out and the frame it lives in
// (an *ArgError for a malformed ref, NOT_FOUND for one never handed out).
func (fd FrameDoor) Ref(ref string) (int, Frame, error) {
	n, k, err := fd.p.refFrame(ref)
	return n, Frame{k}, err
}

// Prepare readies the page model in the worlds of the page's frames other
// than the main one, beside what the caller does next (the main frame's
// walk), so that a walk of each frame later finds it ready. Call the func it
// returns before the operation ends. Call it inside Door.Run.
func (fd FrameDoor) Prepare(ctx context.Context) (wait func()) {
	return fd.p.prepareWorlds(ctx)
}

// Tree asks, beside what the caller does next, which frames each frame of
// the page shows; the func it returns waits for the answer: child frame ids
// by parent frame id (nil on a page without frames). The answer may be
// stale by the time it is used: check a frame taken from it (Child).
func (fd FrameDoor) Tree(ctx context.Context) (wait func() map[string][]string) {
	return fd.p.frameTree(ctx)
}

// ChildOf is the frame with id shown in frame parent, as World.Child gives
// it.
func (fd FrameDoor) ChildOf(parent Frame, id string) Frame {
	if f := fd.p.children.hosting(page.FrameID(id)); f != nil {
		return Frame{frameKey{Session: f.s.id, Frame: page.FrameID(id)}}
	}
	return Frame{frameKey{Session: parent.key.Session, Frame: page.FrameID(id)}}
}

// ID is the frame's id ("" for the zero Frame: the main frame).
func (f Frame) ID() string { return string(f.key.Frame) }
