package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/geom"
	"github.com/cdpmcp/cdpmcp/cdpclient/hittest"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/input"
	"github.com/mafredri/cdp/protocol/runtime"
)

// What the door gives the input actions beyond the core's click and hover
// (cdpclient/input: typing and keys, fill and forms, select, drag, the mouse
// at coordinates, scrolling, uploads): an action run through the
// action-and-observe cycle with its element resolved (Door.Run with
// ModeAct), what the action needs of the page (Door.Input), and, during that
// action, the element's handle: whether it can take the action
// (Actionable), where to click it (ClickablePoint, Click), its page
// functions (Call, Related) and its protocol session (Client, Object).

// LateFrame is how long an action waits for a first change a handler makes
// in the next frame, when it changed nothing at once (InputAction.LateMs).
const LateFrame = lateFrame

// InputDoor is what the door gives the input actions (Door.Input), inside
// a ModeAct fn: the tab brought to the front, whether the page started to
// leave, the document, what is under a point.
type InputDoor struct{ p *Page }

// Input is the door's part for the input actions.
func (d Door) Input() InputDoor { return InputDoor(d) }

// ToFront brings the page's tab to the front, where input events go at once.
func (in InputDoor) ToFront(ctx context.Context) error { return in.p.toFront(ctx) }

// NavMark is the main frame's count of loads and documents: while it stays
// the same, the page has not started to leave.
type NavMark struct{ loads, docs int }

// NavMark is the page's NavMark now.
func (in InputDoor) NavMark() NavMark {
	m := in.p.hist.Mark()
	return NavMark{m.Loads, m.Docs}
}

// Document is the main frame's document element in cdpmcp's world (where a
// drag at coordinates is watched), inside an action.
func (in InputDoor) Document(ctx context.Context) (*Element, error) {
	p := in.p
	r, err := p.evalFunc(ctx, "() => document.documentElement", false)
	if err != nil {
		return nil, err
	}
	if r.Result.ObjectID == nil {
		return nil, fmt.Errorf("the page has no document element")
	}
	key := frameKey{Frame: p.hist.Main()}
	return &Element{p: p, c: p.c, object: *r.Result.ObjectID, key: key}, nil
}

// DescribeAt names what is under a point of the viewport, for feedback: "on
// 12[:]<button>Save</button>" (handing out a ref); empty when it cannot tell.
func (in InputDoor) DescribeAt(ctx context.Context, pt Point) string {
	p := in.p
	hit, err := hittest.NodeAt(ctx, p.c, pt.X, pt.Y)
	if err != nil {
		return ""
	}
	e := &Element{p: p, c: p.c, backend: hit.BackendNodeID, key: frameKey{Frame: hit.FrameID}}
	var desc string
	err = p.withWorld(ctx, e.key, func(w *worldIn) error {
		e.c, e.world = w.c, w.id
		obj, err := e.resolveHere(ctx, e.backend)
		if err != nil {
			return err
		}
		e.object = obj
		st, err := e.state(ctx)
		desc = st.describe()
		return err
	})
	if err != nil {
		return ""
	}
	if ref, ok := p.refForNode(ctx, e.key, e.backend); ok {
		return fmt.Sprintf("on %d[:]%s", ref, desc)
	}
	return "on " + desc
}

// Point is a position in CSS pixels of the main frame's viewport.
type Point = geom.Point

// Rect is a box in CSS pixels of the main frame's viewport.
type Rect = geom.Rect

// Need says which states an action requires of its element.
type Need struct{ Visible, Enabled, Editable bool }

// Actionable waits a moment until the element has the needed states and
// returns the last state seen; otherwise a classified *Error saying why not.
func (e *Element) Actionable(ctx context.Context, n Need) (ElementState, error) {
	return e.actionable(ctx, need{visible: n.Visible, enabled: n.Enabled, editable: n.Editable})
}

// ClickablePoint is where a click on the element lands: the centre of its
// visible box, scrolled into view, checked to reach it and not a cover.
func (e *Element) ClickablePoint(ctx context.Context) (Point, error) {
	pt, err := e.clickablePoint(ctx)
	return Point(pt), err
}

// Click clicks the element once with the left button, as Click does once it
// found its element.
func (e *Element) Click(ctx context.Context) error {
	return e.click(ctx, input.MouseButtonLeft, 1, 0)
}

// ScrollIntoView scrolls the element into view (NOT_FOUND when it is gone
// or has no box).
func (e *Element) ScrollIntoView(ctx context.Context) error { return e.scrollIntoView(ctx) }

// VisiblePoint scrolls the element into view and returns the centre of its
// first visible box.
func (e *Element) VisiblePoint(ctx context.Context) (Point, error) {
	pt, _, err := e.visiblePoint(ctx)
	return Point(pt), err
}

// ViewBox scrolls the element into view and returns its box.
func (e *Element) ViewBox(ctx context.Context) (Rect, error) {
	r, err := e.viewBox(ctx)
	return Rect(r), err
}

// Call runs page function src (named name in errors) with the element as
// this and decodes its JSON result into out (when out is not nil). An
// argument that is a runtime.RemoteObjectID is passed as that object.
func (e *Element) Call(ctx context.Context, name, src string, out any, args ...any) error {
	return e.callSrc(ctx, name, src, out, args...)
}

// Related runs page function src with the element as this and returns a
// handle to the element it answers, in the same frame; nil when it answers
// null.
func (e *Element) Related(ctx context.Context, name, src string, args ...any) (*Element, error) {
	callArgs := make([]runtime.CallArgument, len(args))
	for i, a := range args {
		j, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		callArgs[i] = runtime.CallArgument{Value: j}
	}
	r, err := e.c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs(src).
		SetObjectID(e.object).SetArguments(callArgs).SetObjectGroup(e.p.actLock.Group()))
	switch {
	case err != nil && failure.NodeGone(err):
		return nil, e.gone()
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	case r.ExceptionDetails != nil:
		return nil, &Error{Code: CodeJSError, Msg: name + ": " + ExceptionText(r.ExceptionDetails)}
	case r.Result.ObjectID == nil:
		return nil, nil
	}
	o := *e
	o.object, o.backend, o.ref = *r.Result.ObjectID, 0, ""
	return &o, nil
}

// Ref is the ref the page handed out for the element, if any.
func (e *Element) Ref(ctx context.Context) (int, bool) {
	b, err := e.backendID(ctx)
	if err != nil {
		return 0, false
	}
	return e.p.refForNode(ctx, e.key, b)
}

// Client is the protocol client of the session that hosts the element (the
// page's or an out-of-process frame's).
func (e *Element) Client() *cdp.Client { return e.c }

// Object is the element's remote object in cdpmcp's world, valid during
// the action.
func (e *Element) Object() runtime.RemoteObjectID { return e.object }
