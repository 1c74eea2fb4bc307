package cdpclient

import (
	"context"
	"fmt"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/geom"
	"github.com/cdpmcp/cdpmcp/cdpclient/hittest"
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
		X, Y                      float64
		OK, Gone, Hidden, Outside bool
		Frame                     bool
	}
	if err := e.call(ctx, "clickPoint", &r); err != nil {
		return Point{}, err
	}
	switch {
	case r.Gone:
		return Point{}, e.gone()
	case r.Hidden:
		return Point{}, e.notVisible()
	case r.Outside:
		what := "the element"
		if e.ref != "" {
			what = "ref " + e.ref
		}
		return Point{}, &Error{Code: CodeNotFound, Msg: fmt.Sprintf("%s lies outside the page (at %.0f,%.0f, beyond where it scrolls): no one can click it there", what, r.X, r.Y),
			Hint: "the page keeps it off screen (a slide not shown, an item moved away); use what the page shows to bring it in, or another element"}
	case !r.Frame && r.OK:
		return Point{X: r.X, Y: r.Y}, nil
	}
	pt, fb, err := e.visiblePoint(ctx)
	if err != nil {
		return Point{}, err
	}
	return pt, e.hitCheck(ctx, pt, fb)
}

// frameBox is where an out-of-process frame sits in the main frame
// (cdpclient/hittest); zero for the main frame.
type frameBox = hittest.FrameBox

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
	return Point{X: math.Round(c.X + fb.At.X), Y: math.Round(c.Y + fb.At.Y)}, fb, nil
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

// frameBoxOf locates an out-of-process frame in the main frame's viewport,
// at any depth (hittest.Locate).
func (p *Page) frameBoxOf(ctx context.Context, id page.FrameID) (frameBox, error) {
	return hittest.Locate(ctx, frameHosts{p}, id)
}

// frameHosts are the page's out-of-process frames, for hittest.Locate.
type frameHosts struct{ p *Page }

// Host is the session that attached frame id, and its parent's frame.
func (h frameHosts) Host(id page.FrameID) (*cdp.Client, page.FrameID, bool) {
	f := h.p.children.hosting(id)
	if f == nil {
		return nil, "", false
	}
	if f.parent == "" {
		return h.p.c, "", true
	}
	parent := h.p.children.get(f.parent)
	if parent == nil {
		return nil, "", false
	}
	return parent.c, frameIDOf(parent), true
}

// hitCheck makes sure a click at pt would reach the element (in the frame fb
// locates) and not something covering it (hittest.Check). Covered is an
// *Error with CodeObscured naming the cover.
func (e *Element) hitCheck(ctx context.Context, pt Point, fb frameBox) error {
	return hittest.Check(ctx, hitTarget{e}, pt, fb)
}

// hitTarget is the element a click aims at, for hittest.Check.
type hitTarget struct{ e *Element }

func (t hitTarget) Sessions() (*cdp.Client, *cdp.Client, bool) {
	return t.e.p.c, t.e.c, t.e.frame != nil
}

func (t hitTarget) BackendID(ctx context.Context) (dom.BackendNodeID, error) {
	return t.e.backendID(ctx)
}

func (t hitTarget) Resolve(ctx context.Context, backend dom.BackendNodeID) (runtime.RemoteObjectID, error) {
	return t.e.resolveHere(ctx, backend)
}

func (t hitTarget) Contains(ctx context.Context, obj runtime.RemoteObjectID) (bool, error) {
	var inside bool
	err := t.e.call(ctx, "containsDeep", &inside, obj)
	return inside, err
}

func (t hitTarget) Covered(ctx context.Context, inFrame bool, frame page.FrameID, backend dom.BackendNodeID, obj runtime.RemoteObjectID) error {
	var f *frameSession
	if inFrame {
		f = t.e.frame
	}
	return t.e.obscuredBy(ctx, f, frame, backend, obj)
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
	r, ok := geom.Bounds(quads, fb.At)
	if !ok {
		return Rect{}, e.notVisible()
	}
	return r, nil
}
