package pagemodel

import (
	"context"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/domdebugger"
	"github.com/mafredri/cdp/protocol/runtime"
)

// Elements that take drops are targets a model must be able to name (the
// columns of a board). Page scripts add drop listeners with addEventListener,
// which the page model's isolated world cannot see; the browser lists them with
// DOMDebugger.getEventListeners on the document (its whole subtree in one call).
// Measured on the fixtures: 8 ms with 500 list rows, 113 ms with 12,500, 1.3 s
// with 50,000, 21 ms on the 1 MB Wikipedia page; too slow to run on every
// snapshot, so it runs only on pages with something to drag (HTML5 drag and
// drop starts on a draggable element), and only for drop listeners.

// maxDropTargets bounds how many drop targets a snapshot marks (each is one
// DOM.resolveNode call).
const maxDropTargets = 100

// dropEvents are the events whose listeners make an element a drop target.
var dropEvents = map[string]bool{"drop": true, "dragover": true, "dragenter": true}

// markDropTargets tells the page model in world w which elements of its frame
// have drop listeners. A failure leaves the page model with the targets it
// finds by itself (ondrop attributes, landmarks, headings).
func markDropTargets(ctx context.Context, p *cdpclient.Page, w *cdpclient.World) {
	if err := findDropTargets(ctx, w); err != nil {
		slog.Debug("drop targets not found", "page", p.ID, "err", err)
	}
}

func findDropTargets(ctx context.Context, w *cdpclient.World) error {
	c := w.Client()
	doc, err := w.Eval(ctx, "document", false)
	if err != nil || doc.ObjectID == nil {
		return err
	}
	d, err := c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetObjectID(*doc.ObjectID))
	if err != nil {
		return err
	}
	// Listeners are read on the document of the page's own world.
	main, err := c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(d.Node.BackendNodeID).SetObjectGroup(w.Group()))
	if err != nil || main.Object.ObjectID == nil {
		return err
	}
	ls, err := c.DOMDebugger.GetEventListeners(ctx, domdebugger.NewGetEventListenersArgs(*main.Object.ObjectID).SetDepth(-1).SetPierce(true))
	if err != nil {
		return err
	}
	seen := map[dom.BackendNodeID]bool{}
	var args []runtime.CallArgument
	for _, l := range ls.Listeners {
		if !dropEvents[l.Type] || l.BackendNodeID == nil || seen[*l.BackendNodeID] || len(args) >= maxDropTargets {
			continue
		}
		seen[*l.BackendNodeID] = true
		r, err := c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(*l.BackendNodeID).
			SetExecutionContextID(w.ID()).SetObjectGroup(w.Group()))
		if err != nil || r.Object.ObjectID == nil {
			continue // a node of another frame, or gone
		}
		args = append(args, runtime.CallArgument{ObjectID: r.Object.ObjectID})
	}
	_, err = c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs("function(...els) { __cdpmcp.setDrops(...els); }").
		SetObjectID(*doc.ObjectID).SetArguments(args))
	return err
}
