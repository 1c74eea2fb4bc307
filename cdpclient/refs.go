package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/cdpmcp/cdpmcp/cdpclient/reftable"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/runtime"
)

// refTable is which frame each ref of a page was handed out in
// (cdpclient/reftable).
type refTable = reftable.Table[frameKey]

// refFrame parses a ref and returns the frame it lives in.
func (p *Page) refFrame(ref string) (int, frameKey, error) {
	n, err := strconv.Atoi(ref)
	if err != nil || n <= 0 {
		return 0, frameKey{}, ArgErrorf("refs are the numbers at the start of snapshot lines, e.g. \"12\"", "%q is not a ref", ref)
	}
	k, ok := p.refs.Lookup(n)
	if !ok {
		hint := "take a snapshot to get refs"
		if p.refs.Used() {
			hint = "take a new snapshot: this ref was never handed out on this page"
		}
		return 0, frameKey{}, &Error{Code: CodeNotFound, Msg: "ref " + ref + " is not on the page", Hint: hint}
	}
	return n, k, nil
}

// resolveRef finds the element behind a ref and returns a handle in the main
// world of its frame. A ref whose element is gone is NOT_FOUND, never another
// element. With watch, the same round trip starts the page model's watch in
// the ref's frame with the element as the action's target (watchStart).
// ready, when not empty, is a function called on the element beside that
// round trip (action.ready).
func (p *Page) resolveRef(ctx context.Context, ref string, watch bool, ready string) (*Element, error) {
	n, k, err := p.refFrame(ref)
	if err != nil {
		return nil, err
	}
	el := &Element{p: p, ref: ref, key: k}
	stale := &Error{Code: CodeNotFound, Msg: "ref " + ref + " is no longer on the page",
		Hint: "the page changed; take a new snapshot and use the new ref"}
	err = p.withWorld(ctx, k, func(w *worldIn) error {
		el.c, el.frame, el.world = w.c, w.f, w.id
		el.ready = callReady(ctx, w, n, ready)
		expr := fmt.Sprintf("__cdpmcp.get(%d)", n)
		if watch {
			// A watch that fails leaves the frame unwatched, as in watchStart.
			expr = fmt.Sprintf("(() => { const el = __cdpmcp.get(%d); if (el) try { __cdpmcp.watch(el); } catch (e) {} return el; })()", n)
		}
		r, err := w.eval(ctx, expr, false)
		if err != nil {
			return err
		}
		if r.ObjectID == nil {
			return stale
		}
		el.object = *r.ObjectID
		return nil
	})
	if err != nil {
		if Classify(err).Code == CodeNotFound {
			return nil, stale
		}
		return nil, err
	}
	return el, nil
}

// refForNode returns the ref of a node of a frame, handing one out if it has none
// yet (so an answer can name, say, the banner that covers a button).
func (p *Page) refForNode(ctx context.Context, key frameKey, backend dom.BackendNodeID) (int, bool) {
	var ref int
	err := p.withWorld(ctx, key, func(w *worldIn) error {
		r, err := w.c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(backend).
			SetExecutionContextID(w.id).SetObjectGroup(p.actLock.Group()))
		if err != nil || r.Object.ObjectID == nil {
			return err
		}
		base := p.refs.Base()
		fn := fmt.Sprintf("function() { const st = {last: %d}; const r = __cdpmcp.assign(this, st); return [r, st.last]; }", base)
		cr, err := w.c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs(fn).
			SetObjectID(*r.Object.ObjectID).SetReturnByValue(true))
		if err != nil || cr.ExceptionDetails != nil {
			return err
		}
		var out [2]int
		if err := json.Unmarshal(cr.Result.Value, &out); err != nil {
			return err
		}
		ref = out[0]
		p.refs.Record(key, base, out[1])
		return nil
	})
	return ref, err == nil && ref > 0
}
