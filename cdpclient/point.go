package cdpclient

import (
	"context"
	"fmt"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/geom"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// clickablePoint returns where to click the element: the centre of its visible
// box, scrolled into view, checked to reach the element and not a cover. One page
// call answers this for elements of the main frame and same-origin frames; others
// (and covered elements, to name the cover) take the CDP path.
func (e *Element) clickablePoint(ctx context.Context) (Point, error) {
	var r struct {
		X, Y             float64
		OK, Gone, Hidden bool
		Frame            bool
	}
	if err := e.call(ctx, "clickPoint", &r); err != nil {
		return Point{}, err
	}
	switch {
	case r.Gone:
		return Point{}, e.gone()
	case r.Hidden:
		return Point{}, e.notVisible()
	case !r.Frame && r.OK:
		return Point{X: r.X, Y: r.Y}, nil
	}
	pt, fb, err := e.visiblePoint(ctx)
	if err != nil {
		return Point{}, err
	}
	return pt, e.hitCheck(ctx, pt, fb)
}

// frameBox is where an out-of-process frame sits in the main frame: its owner
// <iframe> and the top-left of that element's content box, in main-frame
// viewport coordinates. It is zero for the main frame.
type frameBox struct {
	owner dom.BackendNodeID
	at    Point
}

// inView scrolls the element into view and returns its content quads, in its
// frame's viewport, and where that frame sits.
func (e *Element) inView(ctx context.Context) ([]dom.Quad, frameBox, error) {
	if err := e.scrollIntoView(ctx); err != nil {
		return nil, frameBox{}, err
	}
	return e.inPlace(ctx) // doorcapture.go
}

// scrollIntoView scrolls the element into view: NOT_FOUND when it is gone
// or has no box.
func (e *Element) scrollIntoView(ctx context.Context) error {
	if err := e.c.DOM.ScrollIntoViewIfNeeded(ctx, dom.NewScrollIntoViewIfNeededArgs().SetObjectID(e.object)); err != nil {
		if failure.NodeGone(err) {
			return e.gone()
		}
		return e.notVisible()
	}
	return nil
}

// visiblePoint scrolls the element into view and returns the centre of its first
// visible box, in main-frame viewport coordinates, and where its frame sits. An
// element without a box is an *Error with CodeNotFound.
func (e *Element) visiblePoint(ctx context.Context) (Point, frameBox, error) {
	quads, fb, err := e.inView(ctx)
	if err != nil {
		return Point{}, frameBox{}, err
	}
	c, ok := geom.Centre(quads)
	if !ok {
		return Point{}, frameBox{}, e.notVisible()
	}
	return Point{X: math.Round(c.X + fb.at.X), Y: math.Round(c.Y + fb.at.Y)}, fb, nil
}

func (e *Element) notVisible() error {
	what := "the element"
	if e.ref != "" {
		what = "ref " + e.ref
	}
	return &Error{Code: CodeNotFound, Msg: what + " is not visible (it has no box on screen)",
		Hint: "it may be hidden, collapsed or not rendered yet; take a snapshot or waitFor it with state=visible"}
}

func frameIDOf(f *frameSession) page.FrameID { return page.FrameID(f.info.TargetID) }

// maxFrameDepth bounds how many frames deep a snapshot descends and frameBoxOf
// looks.
const maxFrameDepth = 10

// frameBoxOf locates an out-of-process frame in the main frame's viewport, at
// any depth: its owner <iframe> lives in the session of its parent frame (the
// page's, or another out-of-process frame's), the top-left of the owner's
// content box is where the frame's viewport starts in its parent's, and the
// parents' offsets add up. owner is the <iframe> of the page's own document
// the frame sits in.
func (p *Page) frameBoxOf(ctx context.Context, id page.FrameID) (frameBox, error) {
	return p.frameBoxAt(ctx, id, 0)
}

func (p *Page) frameBoxAt(ctx context.Context, id page.FrameID, depth int) (frameBox, error) {
	if depth > maxFrameDepth {
		return frameBox{}, fmt.Errorf("locate frame: more than %d frames deep", maxFrameDepth)
	}
	gone := &Error{Code: CodeNotFound, Msg: "the element's frame is no longer in the page",
		Hint: "the frame was replaced or navigated; take a new snapshot"}
	f := p.children.hosting(id)
	if f == nil {
		return frameBox{}, gone
	}
	// The session that attached the frame hosts its parent document. (Ask
	// no other: a session finds the <iframe> of any frame in its process,
	// and a page shares its process with frames of its site deeper down.)
	c, parent := p.c, (*frameSession)(nil)
	if f.parent != "" {
		parent = p.children.get(f.parent)
		if parent == nil {
			return frameBox{}, gone
		}
		c = parent.c
	}
	owner, err := c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(id))
	if err != nil {
		return frameBox{}, gone
	}
	box, err := c.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(owner.BackendNodeID))
	if err != nil {
		return frameBox{}, fmt.Errorf("locate frame box: %w", err)
	}
	at := Point{X: box.Model.Content[0], Y: box.Model.Content[1]}
	if parent == nil {
		return frameBox{owner: owner.BackendNodeID, at: at}, nil
	}
	outer, err := p.frameBoxAt(ctx, frameIDOf(parent), depth+1)
	if err != nil {
		return frameBox{}, err
	}
	return frameBox{owner: outer.owner, at: Point{X: outer.at.X + at.X, Y: outer.at.Y + at.Y}}, nil
}

// nodeAt returns the node at viewport Point (x, y) of a session's document.
// DOM.getNodeForLocation takes document coordinates, so the scroll offset is added.
func nodeAt(ctx context.Context, c *cdp.Client, x, y float64) (*dom.GetNodeForLocationReply, error) {
	m, err := c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return nil, err
	}
	dx, dy := float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	return c.DOM.GetNodeForLocation(ctx, dom.NewGetNodeForLocationArgs(int(x+dx), int(y+dy)).SetIgnorePointerEventsNone(true))
}

// hitCheck makes sure a click at pt would reach the element (in the frame fb
// locates) and not something covering it. Covered is an *Error with CodeObscured naming the cover.
func (e *Element) hitCheck(ctx context.Context, pt Point, fb frameBox) error {
	c, x, y := e.p.c, pt.X, pt.Y
	var f *frameSession
	if e.frame != nil {
		// First make sure nothing in the page covers the frame itself.
		if hit, err := nodeAt(ctx, c, x, y); err == nil && hit.BackendNodeID != fb.owner {
			return e.obscuredBy(ctx, nil, hit.FrameID, hit.BackendNodeID, "")
		}
		c, f, x, y = e.c, e.frame, x-fb.at.X, y-fb.at.Y
	}
	hit, err := nodeAt(ctx, c, x, y)
	if err != nil {
		return nil // nothing to check against; let the click decide
	}
	if b, err := e.backendID(ctx); err == nil && hit.BackendNodeID == b {
		return nil
	}
	obj, err := e.resolveHere(ctx, hit.BackendNodeID)
	if err != nil {
		// Another frame's node: it cannot be inside the element.
		return e.obscuredBy(ctx, f, hit.FrameID, hit.BackendNodeID, "")
	}
	var inside bool
	if err := e.call(ctx, "containsDeep", &inside, obj); err != nil {
		return e.obscuredBy(ctx, f, hit.FrameID, hit.BackendNodeID, obj)
	}
	if inside {
		return nil
	}
	return e.obscuredBy(ctx, f, hit.FrameID, hit.BackendNodeID, obj)
}

// obscuredBy builds the OBSCURED error for a covering node of the page (f nil) or
// of an out-of-process frame.
func (e *Element) obscuredBy(ctx context.Context, f *frameSession, frame page.FrameID, backend dom.BackendNodeID, obj runtime.RemoteObjectID) error {
	c, key := e.p.c, frameKey{Frame: frame}
	if f != nil {
		c, key.Session = f.c, f.s.id
	}
	cover := &Element{p: e.p, c: c, frame: f, backend: backend, object: obj, world: e.world}
	if obj == "" {
		cover.world = 0
		if r, err := c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(backend).SetObjectGroup(e.p.actLock.Group())); err == nil && r.Object.ObjectID != nil {
			cover.object = *r.Object.ObjectID
		}
	}
	desc := "another element"
	if cover.object != "" {
		if st, err := cover.state(ctx); err == nil {
			desc = st.describe()
		}
	}
	err := &Error{Code: CodeObscured, Msg: "the click would land on " + desc + ", which covers the target",
		Hint: "close or dismiss the covering element first (often a cookie banner or dialog), or scroll"}
	if ref, ok := e.p.refForNode(ctx, key, backend); ok {
		err.Ref = fmt.Sprint(ref)
		err.Msg = fmt.Sprintf("the click would land on %d[:]%s, which covers the target", ref, desc)
		err.Hint = fmt.Sprintf("close or dismiss %d first (often a cookie banner or dialog), or scroll", ref)
	}
	return err
}

// viewBox scrolls the element into view and returns its box in the main
// frame's viewport. An element without a box is NOT_FOUND.
func (e *Element) viewBox(ctx context.Context) (Rect, error) {
	quads, fb, err := e.inView(ctx)
	if err != nil {
		return Rect{}, err
	}
	r, ok := geom.Bounds(quads, fb.at)
	if !ok {
		return Rect{}, e.notVisible()
	}
	return r, nil
}
