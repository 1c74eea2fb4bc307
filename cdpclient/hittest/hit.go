package hittest

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/geom"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// NodeAt returns the node at viewport point (x, y) of a session's document.
// DOM.getNodeForLocation takes document coordinates, so the scroll offset is
// added.
func NodeAt(ctx context.Context, c *cdp.Client, x, y float64) (*dom.GetNodeForLocationReply, error) {
	m, err := c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return nil, err
	}
	dx, dy := float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	return c.DOM.GetNodeForLocation(ctx, dom.NewGetNodeForLocationArgs(int(x+dx), int(y+dy)).SetIgnorePointerEventsNone(true))
}

// Target is the element a click aims at, as the hit test asks about it.
type Target interface {
	// Sessions are the page's session and the element's own, which is
	// another when the element lives in an out-of-process frame (inFrame).
	Sessions() (pageSession, own *cdp.Client, inFrame bool)
	BackendID(ctx context.Context) (dom.BackendNodeID, error)
	// Resolve makes an object of a node of the element's session, in the
	// element's world; an error says the node is another frame's.
	Resolve(ctx context.Context, backend dom.BackendNodeID) (runtime.RemoteObjectID, error)
	// Contains reports whether the object is inside the element (in its
	// shadow trees too).
	Contains(ctx context.Context, obj runtime.RemoteObjectID) (bool, error)
	// Covered is the error of a click that would land on a node covering
	// the element: a node of the page (inFrame false) or of the element's
	// frame; obj is "" when it has no object yet.
	Covered(ctx context.Context, inFrame bool, frame page.FrameID, backend dom.BackendNodeID, obj runtime.RemoteObjectID) error
}

// Check makes sure a click at pt would reach the element (in the frame fb
// locates) and not something covering it: nil when it would, or when
// nothing tells (the click decides), else the Target's Covered error.
func Check(ctx context.Context, t Target, pt geom.Point, fb FrameBox) error {
	c, own, inFrame := t.Sessions()
	x, y := pt.X, pt.Y
	if inFrame {
		// First make sure nothing in the page covers the frame itself.
		if hit, err := NodeAt(ctx, c, x, y); err == nil && hit.BackendNodeID != fb.Owner {
			return t.Covered(ctx, false, hit.FrameID, hit.BackendNodeID, "")
		}
		c, x, y = own, x-fb.At.X, y-fb.At.Y
	}
	hit, err := NodeAt(ctx, c, x, y)
	if err != nil {
		return nil // nothing to check against; let the click decide
	}
	if b, err := t.BackendID(ctx); err == nil && hit.BackendNodeID == b {
		return nil
	}
	obj, err := t.Resolve(ctx, hit.BackendNodeID)
	if err != nil {
		// Another frame's node: it cannot be inside the element.
		return t.Covered(ctx, inFrame, hit.FrameID, hit.BackendNodeID, "")
	}
	inside, err := t.Contains(ctx, obj)
	if err != nil {
		return t.Covered(ctx, inFrame, hit.FrameID, hit.BackendNodeID, obj)
	}
	if inside {
		return nil
	}
	return t.Covered(ctx, inFrame, hit.FrameID, hit.BackendNodeID, obj)
}
