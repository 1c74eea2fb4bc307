package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/cdpmcp/cdpmcp/internal/poll"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/runtime"
)

// Target names an element: a ref from the page's latest snapshot, or a CSS
// selector (which also matches inside open shadow roots). Ref wins when both are set.
type Target struct {
	Ref      string
	Selector string
}

// IsZero reports whether the target names nothing.
func (t Target) IsZero() bool { return t.Ref == "" && t.Selector == "" }

func (t Target) String() string {
	if t.Ref != "" {
		return "ref " + t.Ref
	}
	return "selector " + strconv.Quote(t.Selector)
}

// Element is a handle to one DOM element of a page or one of its frames, valid for
// the duration of one operation.
type Element struct {
	p       *Page
	c       *cdp.Client // the session that owns the node (page or out-of-process frame)
	frame   *frameSession
	object  runtime.RemoteObjectID
	backend dom.BackendNodeID // 0 until needed; see backendID
	ref     string
	// key is the frame the element lives in.
	key frameKey
	// world is the execution context the object lives in: cdpmcp's isolated
	// world of the element's frame. Nodes resolved for comparison go there too.
	world runtime.ExecutionContextID
	// ready brings the value of the action's ready function, called on the
	// element as it was found (resolveRef); nil without one.
	ready <-chan readyValue
}

// backendID returns the element's backend node id, asking the browser once.
func (e *Element) backendID(ctx context.Context) (dom.BackendNodeID, error) {
	if e.backend != 0 {
		return e.backend, nil
	}
	d, err := e.c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetObjectID(e.object))
	if err != nil {
		if failure.NodeGone(err) {
			return 0, e.gone()
		}
		return 0, fmt.Errorf("describe node: %w", err)
	}
	e.backend = d.Node.BackendNodeID
	return e.backend, nil
}

// resolveHere resolves a node of the element's frame into the element's world.
func (e *Element) resolveHere(ctx context.Context, backend dom.BackendNodeID) (runtime.RemoteObjectID, error) {
	args := dom.NewResolveNodeArgs().SetBackendNodeID(backend).SetObjectGroup(e.p.actLock.Group())
	if e.world != 0 {
		args.SetExecutionContextID(e.world)
	}
	r, err := e.c.DOM.ResolveNode(ctx, args)
	if err != nil {
		return "", err
	}
	if r.Object.ObjectID == nil {
		return "", fmt.Errorf("node %d has no object", backend)
	}
	return *r.Object.ObjectID, nil
}

// mainWorld returns a handle to the element in its frame's main world, where the
// page's own scripts (and evaluate's functions) live.
func (e *Element) mainWorld(ctx context.Context) (*Element, error) {
	if e.world == 0 {
		return e, nil
	}
	b, err := e.backendID(ctx)
	if err != nil {
		return nil, err
	}
	r, err := e.c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(b).SetObjectGroup(e.p.actLock.Group()))
	if err != nil || r.Object.ObjectID == nil {
		return nil, e.gone()
	}
	m := *e
	m.object, m.world = *r.Object.ObjectID, 0
	return &m, nil
}

// Resolve finds the element a target names. No match is an *Error with
// CodeNotFound; a malformed selector is an *ArgError.
func (p *Page) Resolve(ctx context.Context, t Target) (*Element, error) {
	switch {
	case t.Ref != "":
		return p.resolveRef(ctx, t.Ref, false, "")
	case t.Selector != "":
		return p.resolveSelector(ctx, t.Selector)
	}
	return nil, ArgErrorf("pass ref (from snapshot) or selector", "no target element given")
}

// evalFunc calls fn(args...) in the main world of the page's main frame and keeps
// the result as a remote object unless byValue.
func (p *Page) evalFunc(ctx context.Context, fn string, byValue bool, args ...any) (*runtime.EvaluateReply, error) {
	expr, err := jsfunc.Call(fn, args...)
	if err != nil {
		return nil, err
	}
	// In cdpmcp's isolated world of the main frame: the page's globals and
	// prototypes (an overridden innerText or querySelector) neither run nor lie.
	key := frameKey{Frame: p.hist.Main()}
	var r *runtime.EvaluateReply
	err = p.withWorld(ctx, key, func(w *worldIn) error {
		var err error
		r, err = p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetContextID(w.id).
			SetReturnByValue(byValue).SetObjectGroup(p.actLock.Group()).SetAwaitPromise(true))
		if err != nil {
			return fmt.Errorf("evaluate: %w", err)
		}
		return nil
	})
	return r, err
}

// call runs a page function with the element as this and decodes its JSON result
// into out (when out is not nil).
func (e *Element) call(ctx context.Context, fn string, out any, args ...any) error {
	return e.callSrc(ctx, fn, PageFunc(fn), out, args...)
}

// callSrc is call with the function's source given; name labels errors.
func (e *Element) callSrc(ctx context.Context, fn, src string, out any, args ...any) error {
	callArgs := make([]runtime.CallArgument, len(args))
	for i, a := range args {
		if o, ok := a.(runtime.RemoteObjectID); ok {
			callArgs[i] = runtime.CallArgument{ObjectID: &o}
			continue
		}
		j, err := json.Marshal(a)
		if err != nil {
			return err
		}
		callArgs[i] = runtime.CallArgument{Value: j}
	}
	r, err := e.c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs(src).
		SetObjectID(e.object).SetArguments(callArgs).SetReturnByValue(true).SetAwaitPromise(true))
	if err != nil {
		if failure.NodeGone(err) {
			return e.gone()
		}
		return fmt.Errorf("%s: %w", fn, err)
	}
	if r.ExceptionDetails != nil {
		return &Error{Code: CodeJSError, Msg: fn + ": " + ExceptionText(r.ExceptionDetails)}
	}
	if out != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			return fmt.Errorf("%s: decode result: %w", fn, err)
		}
	}
	return nil
}

func (e *Element) gone() error {
	what := "the element"
	if e.ref != "" {
		what = "ref " + e.ref
	}
	return &Error{Code: CodeNotFound, Msg: what + " is no longer in the page",
		Hint: "the page changed; take a new snapshot and use the new ref"}
}

// ElementState is what actions check before acting.
type ElementState struct {
	Connected bool   `json:"connected"`
	Visible   bool   `json:"visible"`
	Disabled  bool   `json:"disabled"`
	Editable  bool   `json:"editable"`
	Readonly  bool   `json:"readonly"`
	Tag       string `json:"tag"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	// Secret: the field's value is secret (a password field, one that was
	// one, one named or marked for a password or a one-time code).
	Secret bool `json:"secret"`
}

func (s ElementState) describe() string {
	tag := s.Tag
	if s.Type != "" {
		tag += " type=" + s.Type
	}
	return "<" + tag + ">" + s.Text + "</" + s.Tag + ">"
}

func (e *Element) state(ctx context.Context) (ElementState, error) {
	var s ElementState
	if err := e.call(ctx, "state", &s); err != nil {
		return s, err
	}
	if !s.Connected {
		return s, e.gone()
	}
	return s, nil
}

// ExceptionText is the first line of a thrown exception, as cdpclient words
// it in its errors (failure.ExceptionText).
func ExceptionText(d *runtime.ExceptionDetails) string { return failure.ExceptionText(d) }

// actionabilityWait is how long an action waits for its element to become visible
// and enabled before it reports why it could not act. ctx may end it sooner.
const actionabilityWait = time.Second

// need says which states an action requires of its element.
type need struct{ visible, enabled, editable bool }

// actionable waits (up to actionabilityWait) until the element has the needed
// states and returns the last state seen; otherwise a classified *Error. The
// wait bounds the time between reads, never a read itself: on a loaded
// machine a read may take longer than the whole wait, and an element that
// was ready all along must not come out as "the call did not finish in time".
func (e *Element) actionable(ctx context.Context, n need) (ElementState, error) {
	wctx, cancel := context.WithTimeout(ctx, actionabilityWait)
	defer cancel()
	var st ElementState
	var last error
	err := poll.Until(wctx, 50*time.Millisecond, func() (bool, error) {
		var err error
		if st, err = e.state(ctx); err != nil {
			return false, err
		}
		switch {
		case n.visible && !st.Visible:
			last = e.notVisible()
		case n.enabled && st.Disabled:
			last = &Error{Code: CodeDisabled, Msg: st.describe() + " is disabled",
				Hint: "fill in what the form requires first, or wait until it is enabled (waitFor)"}
		case n.editable && st.Readonly:
			last = &Error{Code: CodeDisabled, Msg: st.describe() + " is read-only: it takes no typed text",
				Hint: "a read-only field is set by the page; find the control that changes it, or the field to type in"}
		case n.editable && !st.Editable:
			last = &Error{Code: CodeDisabled, Msg: st.describe() + " does not take typed text",
				Hint: "target an input, textarea or contenteditable element (selectOption for <select>)"}
		default:
			return true, nil
		}
		return false, nil
	})
	if err != nil && last != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return st, last
	}
	return st, err
}
