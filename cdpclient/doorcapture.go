package cdpclient

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/geom"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
)

// What the door gives a feature that pictures the page (cdpclient/capture:
// a screenshot of an element, numbered ref boxes drawn on an image): where
// an element is, and where a frame's viewport is, to place the boxes its
// world measures. Call them inside Door.Run.

// Clip returns the element's bounding box in page coordinates (a
// screenshot's clip) and its top-left in viewport coordinates, scrolled into
// view first unless not scroll (then where it is, in or out of the
// viewport). An element not visible is an *Error (NOT_VISIBLE).
func (e *Element) Clip(ctx context.Context, scroll bool) (clip page.Viewport, x, y float64, err error) {
	clip, at, err := e.p.elementClip(ctx, e, scroll)
	return clip, at.X, at.Y, err
}

// Origin is where the world's frame's viewport starts in the main frame's
// viewport: (0, 0) for the main frame; an error for a frame the core does
// not locate (gone, not laid out, or in the process of a frame out of the
// page's).
func (w *World) Origin(ctx context.Context) (Point, error) {
	if w.key.Frame == page.FrameID(w.p.Door().Frames().Main()) {
		return Point{}, nil
	}
	if w.w.c == w.p.c {
		// In the page's own process: its <iframe>'s content box, which
		// the page's session gives in the main frame's viewport.
		owner, err := w.p.c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(w.key.Frame))
		if err != nil {
			return Point{}, &Error{Code: CodeNotFound, Msg: "the frame is no longer in the page", Hint: "take a new snapshot"}
		}
		box, err := w.p.c.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(owner.BackendNodeID))
		if err != nil {
			return Point{}, fmt.Errorf("locate frame box: %w", err)
		}
		return Point{X: box.Model.Content[0], Y: box.Model.Content[1]}, nil
	}
	fb, err := w.p.frameBoxOf(ctx, w.key.Frame)
	return fb.At, err
}

// elementClip scrolls the element into view (unless not scroll) and returns
// its bounding box in page coordinates, and its top-left in viewport
// coordinates.
func (p *Page) elementClip(ctx context.Context, e *Element, scroll bool) (page.Viewport, Point, error) {
	inView := e.inView
	if !scroll {
		inView = e.inPlace
	}
	quads, fb, err := inView(ctx)
	if err != nil {
		return page.Viewport{}, Point{}, err
	}
	r, ok := geom.Bounds(quads, fb.At)
	if !ok {
		return page.Viewport{}, Point{}, e.notVisible()
	}
	m, err := p.c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return page.Viewport{}, Point{}, fmt.Errorf("layout metrics: %w", err)
	}
	sx, sy := float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	return page.Viewport{X: r.X + sx, Y: r.Y + sy, Width: r.W, Height: r.H, Scale: 1}, Point{X: r.X, Y: r.Y}, nil
}

// inPlace is inView without scrolling: the element's boxes where they are,
// in and out of the viewport.
func (e *Element) inPlace(ctx context.Context) ([]dom.Quad, frameBox, error) {
	q, err := e.c.DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetObjectID(e.object))
	if err != nil {
		if failure.NodeGone(err) {
			return nil, frameBox{}, e.gone()
		}
		return nil, frameBox{}, e.notVisible()
	}
	var fb frameBox
	if e.frame != nil {
		if fb, err = e.p.frameBoxOf(ctx, frameIDOf(e.frame)); err != nil {
			return nil, frameBox{}, err
		}
	}
	return q.Quads, fb, nil
}
