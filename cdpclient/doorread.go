package cdpclient

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/geom"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"

	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
)

// What the door gives the features that read the page and run the caller's
// code (cdpclient/find, content, eval, passthrough): the worlds that hold
// refs (find), an element's box as it is (find's boxes), the caller's script
// run without the busy watchdog and stopped when it runs out of time (eval),
// a selector the page refused (content), and which targets a browser context
// owns (the cdp passthrough's confinement).

// RefWorlds runs fn in the isolated world of the main frame, then in that
// of each other frame the page handed out refs in (in no set order), as
// Door.World does for the main frame; a world whose fn fails is passed
// over. Call it inside Door.Run.
func (fd FrameDoor) RefWorlds(ctx context.Context, fn func(*World) error) {
	p := fd.p
	keys := []frameKey{{Frame: p.hist.Main()}}
	for _, k := range p.refs.Frames() {
		if k != keys[0] {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		_ = p.withWorld(ctx, k, func(w *worldIn) error { return fn(&World{p: p, w: w, key: k}) })
	}
}

// Box is the element's box in CSS pixels of the main frame's viewport as it
// is now, without scrolling; an element without one is NOT_VISIBLE.
func (e *Element) Box(ctx context.Context) (Rect, error) {
	q, err := e.c.DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetObjectID(e.object))
	if err != nil {
		return Rect{}, err
	}
	var fb frameBox
	if e.frame != nil {
		if fb, err = e.p.frameBoxOf(ctx, frameIDOf(e.frame)); err != nil {
			return Rect{}, err
		}
	}
	r, ok := geom.Bounds(q.Quads, fb.At)
	if !ok {
		return Rect{}, e.notVisible()
	}
	return r, nil
}

// Group is the object group of the running operation: objects made in it,
// in any world, are released when the operation ends.
func (d Door) Group() string { return d.p.actLock.Group() }

// MainWorld is a handle to the element in its frame's main world, where the
// page's own scripts live (and the caller's functions run).
func (e *Element) MainWorld(ctx context.Context) (*Element, error) { return e.mainWorld(ctx) }

// Gone is the element's NOT_FOUND error when err, from a call on the
// element, says it is no longer in the page; nil otherwise.
func (e *Element) Gone(err error) error {
	if failure.NodeGone(err) {
		return e.gone()
	}
	return nil
}

// Owns says whether a target belongs to the context. The default context
// owns every target that is not in a context cdpmcp created for a session.
func (d ContextDoor) Owns(info target.Info) bool {
	bc := d.bc
	ctxID := ""
	if info.BrowserContextID != nil {
		ctxID = string(*info.BrowserContextID)
	}
	if bc.id != "" {
		return ctxID == bc.id
	}
	bc.b.mu.Lock()
	defer bc.b.mu.Unlock()
	_, other := bc.b.contexts[ctxID]
	return !other
}

// CallInWorld calls page function fn with args (as JSON) in cdpmcp's isolated
// world of the main frame, where the page's globals and prototypes neither run
// nor lie, and answers its reply by value: the value, or the exception it
// threw for the feature to word. Call it inside Door.Run.
func (d Door) CallInWorld(ctx context.Context, fn string, args ...any) (*runtime.EvaluateReply, error) {
	expr, err := jsfunc.Call(fn, args...)
	if err != nil {
		return nil, err
	}
	var r *runtime.EvaluateReply
	err = d.World(ctx, func(w *World) error {
		var err error
		r, err = w.Client().Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetContextID(w.ID()).
			SetReturnByValue(true).SetObjectGroup(w.Group()).SetAwaitPromise(true))
		if err != nil {
			return fmt.Errorf("evaluate: %w", err)
		}
		return nil
	})
	return r, err
}
