package input

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/mafredri/cdp"
	cdpinput "github.com/mafredri/cdp/protocol/input"
)

// ScrollState says where a scroll container (or the page) is scrolled to and how
// many CSS pixels of content lie beyond the viewport in each direction.
type ScrollState struct {
	X     int `json:"x"`
	Y     int `json:"y"`
	Above int `json:"above"`
	Below int `json:"below"`
	Left  int `json:"left"`
	Right int `json:"right"`
	// VW and VH are the size of the viewport of the document read, CSS
	// pixels without scroll bars: where a page's wheel goes.
	VW float64 `json:"vw"`
	VH float64 `json:"vh"`
}

// Scroll scrolls the page (or, with a target, the area under the target) by
// amount CSS pixels in direction up, down, left or right with mouse-wheel events,
// or brings the target into view with "to_element", and reports what happened
// (content loaded as it came into view, too). amount 0 means most of a viewport.
// delta.value says where it stopped: "y=… above=… below=…" ("x=… left=…
// right=…" scrolling sideways).
func Scroll(ctx context.Context, page *cdpclient.Page, direction string, amount int, t cdpclient.Target) (*feedback.Feedback, error) {
	if err := checkScroll(direction, amount, t); err != nil {
		return nil, err
	}
	p := on(page)
	return p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{Target: t}), func(ctx context.Context, _ *cdp.Client) error {
		e := cdpclient.ActionElement(ctx)
		st, err := p.scroll(ctx, direction, amount, e)
		if direction == "left" || direction == "right" {
			cdpclient.ReportValue(ctx, fmt.Sprintf("x=%d left=%d right=%d", st.X, st.Left, st.Right))
		} else {
			cdpclient.ReportValue(ctx, fmt.Sprintf("y=%d above=%d below=%d", st.Y, st.Above, st.Below))
		}
		return err
	})
}

func checkScroll(direction string, amount int, t cdpclient.Target) error {
	switch direction {
	case "up", "down", "left", "right":
	case "to_element":
		if t.IsZero() {
			return cdpclient.ArgErrorf("pass the ref or selector of the element to scroll to", "to_element needs a target")
		}
	default:
		return cdpclient.ArgErrorf("use up, down, left, right or to_element", "direction %q is not a scroll direction", direction)
	}
	if amount < 0 {
		return cdpclient.ArgErrorf("give a positive amount of pixels", "amount %d is negative", amount)
	}
	return nil
}

// scroll does the scrolling for Scroll; e is the target or nil.
func (p *tab) scroll(ctx context.Context, direction string, amount int, e *cdpclient.Element) (ScrollState, error) {
	var st ScrollState
	if direction == "to_element" {
		if err := e.ScrollIntoView(ctx); err != nil {
			return st, err
		}
		cdpclient.Dispatched(ctx)
		return st, p.readScroll(ctx, nil, &st)
	}
	// The page's own wheel goes to the middle of its viewport, which the
	// read of where it is scrolled says; an element's, to its middle, and
	// the default amount is most of the top viewport.
	var before ScrollState
	var at cdpclient.Point
	var w, h float64
	if e == nil {
		if err := p.readScroll(ctx, nil, &before); err != nil {
			return st, err
		}
		w, h = before.VW, before.VH
		at = cdpclient.Point{X: w / 2, Y: h / 2}
	} else {
		vp, err := p.c.Page.GetLayoutMetrics(ctx)
		if err != nil {
			return st, err
		}
		w, h = float64(vp.CSSLayoutViewport.ClientWidth), float64(vp.CSSLayoutViewport.ClientHeight)
		if at, err = e.VisiblePoint(ctx); err != nil {
			return st, err
		}
		before = p.docScroll(ctx, e)
	}
	dx, dy := wheelDelta(direction, float64(amount), w, h)
	if err := p.mouseWheel(ctx, at.X, at.Y, dx, dy); err != nil {
		return st, err
	}
	return st, p.waitScrolled(ctx, e, before, dx, dy, &st)
}

// wheelDelta is the wheel movement for a direction and amount; amount 0 is most
// of the viewport (w × h).
func wheelDelta(direction string, amount, w, h float64) (dx, dy float64) {
	switch direction {
	case "up", "down":
		if amount == 0 {
			amount = h * 0.8
		}
		if direction == "up" {
			return 0, -amount
		}
		return 0, amount
	}
	if amount == 0 {
		amount = w * 0.8
	}
	if direction == "left" {
		return -amount, 0
	}
	return amount, 0
}

// waitScrolled waits until a wheel scroll of (dx, dy) from before has been
// applied and reads where it stopped into st: the position reaches its
// target, or stops moving for 100 ms. Smooth scrolling animates, so this can
// take a few frames; it gives up after one second. The page waits, a frame at
// a time (js/field.js: scrollWait), so the answer comes with the frame that
// applied the scroll rather than at the next turn of a poll.
func (p *tab) waitScrolled(ctx context.Context, e *cdpclient.Element, before ScrollState, dx, dy float64, st *ScrollState) error {
	clamp := func(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
	want := map[string]int{
		"x": int(clamp(float64(before.X)+dx, float64(before.X-before.Left), float64(before.X+before.Right))),
		"y": int(clamp(float64(before.Y)+dy, float64(before.Y-before.Above), float64(before.Y+before.Below))),
	}
	// The page gives up after scrollWaitMs; a page too busy to answer by
	// then leaves the last read to readScroll.
	wctx, cancel := context.WithTimeout(ctx, 2*scrollWaitMs*time.Millisecond)
	defer cancel()
	args := []any{want, before, scrollStillMs, scrollWaitMs}
	var err error
	if e != nil {
		err = e.Call(wctx, "scrollWait", funcs.With("scrollWait", "scrollState"), st, args...)
	} else {
		err = p.evalInWorld(wctx, funcs.With("scrollWait", "scrollState"), st, args...)
	}
	if err == nil || ctx.Err() != nil {
		return err
	}
	return p.readScroll(ctx, e, st)
}

// How long a wheel scroll may take to land, and how long a position must
// hold to count as where it stopped (ms).
const (
	scrollWaitMs  = 1000
	scrollStillMs = 100
)

func (p *tab) docScroll(ctx context.Context, e *cdpclient.Element) ScrollState {
	var st ScrollState
	_ = p.readScroll(ctx, e, &st)
	return st
}

func (p *tab) readScroll(ctx context.Context, e *cdpclient.Element, st *ScrollState) error {
	if e != nil {
		return call(ctx, e, "scrollState", st)
	}
	return p.evalInWorld(ctx, funcs.Func("scrollState"), st)
}

// evalInWorld calls page function fn with args in the main frame's world
// and decodes its answer (a promise's, once settled) into out.
func (p *tab) evalInWorld(ctx context.Context, fn string, out any, args ...any) error {
	expr, err := jsfunc.Call(fn, args...)
	if err != nil {
		return err
	}
	return p.d.World(ctx, func(w *cdpclient.World) error {
		r, err := w.Eval(ctx, expr, true)
		if err != nil || len(r.Value) == 0 {
			return err
		}
		return json.Unmarshal(r.Value, out)
	})
}

// mouseWheel scrolls by (dx, dy) CSS pixels with the pointer at (x, y).
func (p *tab) mouseWheel(ctx context.Context, x, y, dx, dy float64) error {
	if err := p.d.Input().ToFront(ctx); err != nil {
		return err
	}
	cdpclient.Dispatched(ctx)
	ev := cdpinput.NewDispatchMouseEventArgs("mouseWheel", x, y).SetDeltaX(dx).SetDeltaY(dy)
	if err := p.c.Input.DispatchMouseEvent(ctx, ev); err != nil {
		return fmt.Errorf("mouse wheel: %w", err)
	}
	return nil
}
