// Package hittest is where a click on an element would land: where an
// out-of-process frame sits in the main frame's viewport, which node is at a
// point, and whether a click at the element's point reaches it or something
// that covers it. It asks the browser through the sessions the core hands
// it (Hosts, Target); the core keeps the elements, refs and errors' names.
package hittest

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/geom"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
)

// FrameBox is where an out-of-process frame sits in the main frame: its owner
// <iframe> and the top-left of that element's content box, in main-frame
// viewport coordinates. It is zero for the main frame.
type FrameBox struct {
	Owner dom.BackendNodeID
	At    geom.Point
}

// MaxFrameDepth bounds how many frames deep a snapshot descends and Locate
// looks.
const MaxFrameDepth = 10

// Hosts are the page's out-of-process frames as the core attached them.
type Hosts interface {
	// Host is the session that attached frame id, which hosts its parent
	// document, where its <iframe> is (ask no other: a session finds the
	// <iframe> of any frame in its process, and a page shares its process
	// with frames of its site deeper down), and that document's frame when
	// it is itself an out-of-process frame ("" for the page's own). ok is
	// false once the frame or its parent is gone.
	Host(id page.FrameID) (c *cdp.Client, parent page.FrameID, ok bool)
}

// Locate finds an out-of-process frame in the main frame's viewport, at any
// depth: its owner <iframe> lives in the session of its parent frame (the
// page's, or another out-of-process frame's), the top-left of the owner's
// content box is where the frame's viewport starts in its parent's, and the
// parents' offsets add up. Owner is the <iframe> of the page's own document
// the frame sits in.
func Locate(ctx context.Context, h Hosts, id page.FrameID) (FrameBox, error) {
	return locate(ctx, h, id, 0)
}

func locate(ctx context.Context, h Hosts, id page.FrameID, depth int) (FrameBox, error) {
	if depth > MaxFrameDepth {
		return FrameBox{}, fmt.Errorf("locate frame: more than %d frames deep", MaxFrameDepth)
	}
	gone := &failure.Error{Code: failure.CodeNotFound, Msg: "the element's frame is no longer in the page",
		Hint: "the frame was replaced or navigated; take a new snapshot"}
	c, parent, ok := h.Host(id)
	if !ok {
		return FrameBox{}, gone
	}
	owner, err := c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(id))
	if err != nil {
		return FrameBox{}, gone
	}
	box, err := c.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(owner.BackendNodeID))
	if err != nil {
		return FrameBox{}, fmt.Errorf("locate frame box: %w", err)
	}
	at := geom.Point{X: box.Model.Content[0], Y: box.Model.Content[1]}
	if parent == "" {
		return FrameBox{Owner: owner.BackendNodeID, At: at}, nil
	}
	outer, err := locate(ctx, h, parent, depth+1)
	if err != nil {
		return FrameBox{}, err
	}
	return FrameBox{Owner: outer.Owner, At: geom.Point{X: outer.At.X + at.X, Y: outer.At.Y + at.Y}}, nil
}
