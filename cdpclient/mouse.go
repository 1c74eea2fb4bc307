package cdpclient

import (
	"context"
	"fmt"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp/protocol/input"
)

// pointerState is what the mouse holds between calls: the buttons pressed (a
// mask: 1 left, 2 right, 4 middle) and where it last was, so a down in one call
// and an up in another make one gesture. Guarded by the page's mu.
type pointerState struct {
	buttons int
	at      point
}

// MouseInput is one thing the mouse does at a point of the viewport, in CSS
// pixels (the pixels of a viewport screenshot at device scale factor 1).
type MouseInput struct {
	// Action is move, click, dblclick, down, up, wheel or drag.
	Action string
	X, Y   float64
	// ToX, ToY are where a drag ends.
	ToX, ToY float64
	// DX, DY are a wheel's scroll amounts in CSS pixels.
	DX, DY float64
	Button MouseButton // default left
}

// Mouse does what in says at viewport coordinates, for canvas apps, maps and
// games that have no elements to name, and reports what happened and what was
// under the pointer.
func (p *Page) Mouse(ctx context.Context, in MouseInput) (*feedback.Feedback, error) {
	button, err := parseButton(in.Button)
	if err != nil {
		return nil, err
	}
	switch in.Action {
	case "move", "click", "dblclick", "down", "up", "wheel", "drag":
	default:
		return nil, argError("use move, click, dblclick, down, up, wheel or drag", "mouse action %q is not known", in.Action)
	}
	if in.Action == "wheel" && in.DX == 0 && in.DY == 0 {
		return nil, argError(`give dy (down) or dx (right) in pixels, e.g. {"action":"wheel","x":200,"y":150,"dy":300}`, "a wheel needs dx or dy")
	}
	at := point{X: in.X, Y: in.Y}
	return p.perform(ctx, action{kind: actInput, lateMs: lateFrame, run: func(ctx context.Context, _ *Element) (string, error) {
		if err := p.inViewport(ctx, at); err != nil {
			return "", err
		}
		if err := p.toFront(ctx); err != nil {
			return "", err
		}
		switch in.Action {
		case "move":
			err = p.pointerTo(ctx, at)
		case "click", "dblclick":
			n := 1
			if in.Action == "dblclick" {
				n = 2
			}
			err = p.clickAt(ctx, at, button, n)
		case "down":
			if err = p.pointerTo(ctx, at); err == nil {
				err = p.press(ctx, at, button, 1)
			}
		case "up":
			if err = p.pointerTo(ctx, at); err == nil {
				err = p.release(ctx, at, button, 1)
			}
		case "wheel":
			if err = p.pointerTo(ctx, at); err == nil {
				err = p.mouseWheel(ctx, at.X, at.Y, in.DX, in.DY)
			}
		case "drag":
			to := point{X: in.ToX, Y: in.ToY}
			if err := p.inViewport(ctx, to); err != nil {
				return "", err
			}
			var main *Element
			if main, err = p.rootElement(ctx); err == nil {
				_, err = p.dragPath(ctx, at, func(context.Context) (point, error) { return to, nil }, main)
			}
		}
		if err != nil {
			return "", err
		}
		return p.describeAt(ctx, at), nil
	}})
}

// inViewport refuses a point outside the viewport, naming its size.
func (p *Page) inViewport(ctx context.Context, pt point) error {
	m, err := p.c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return fmt.Errorf("layout metrics: %w", err)
	}
	w, h := float64(m.CSSLayoutViewport.ClientWidth), float64(m.CSSLayoutViewport.ClientHeight)
	if pt.X < 0 || pt.Y < 0 || pt.X >= w || pt.Y >= h || math.IsNaN(pt.X+pt.Y) {
		return argError(fmt.Sprintf("the viewport is %.0f×%.0f CSS pixels: give 0 ≤ x < %.0f and 0 ≤ y < %.0f (scroll to reach the rest)", w, h, w, h),
			"point %.0f,%.0f is outside the viewport", pt.X, pt.Y)
	}
	return nil
}

// pointerTo moves the mouse to pt with the buttons held that are held.
func (p *Page) pointerTo(ctx context.Context, pt point) error {
	markDispatched(ctx)
	p.mu.Lock()
	held := p.pointer.buttons
	p.mu.Unlock()
	ev := input.NewDispatchMouseEventArgs("mouseMoved", pt.X, pt.Y).SetButtons(held).SetButton(heldButton(held))
	if err := p.c.Input.DispatchMouseEvent(ctx, ev); err != nil {
		return fmt.Errorf("mouse move: %w", err)
	}
	p.mu.Lock()
	p.pointer.at = pt
	p.mu.Unlock()
	return nil
}

// press and release push and let go of a button where the mouse is.
func (p *Page) press(ctx context.Context, pt point, b input.MouseButton, count int) error {
	return p.pressOrRelease(ctx, "mousePressed", pt, b, count)
}

func (p *Page) release(ctx context.Context, pt point, b input.MouseButton, count int) error {
	return p.pressOrRelease(ctx, "mouseReleased", pt, b, count)
}

func (p *Page) pressOrRelease(ctx context.Context, typ string, pt point, b input.MouseButton, count int) error {
	markDispatched(ctx)
	p.mu.Lock()
	if typ == "mousePressed" {
		p.pointer.buttons |= buttonsMask(b)
	} else {
		p.pointer.buttons &^= buttonsMask(b)
	}
	held := p.pointer.buttons
	p.mu.Unlock()
	ev := input.NewDispatchMouseEventArgs(typ, pt.X, pt.Y).SetButton(b).SetButtons(held).SetClickCount(count)
	if err := p.c.Input.DispatchMouseEvent(ctx, ev); err != nil {
		return fmt.Errorf("%s: %w", typ, err)
	}
	return nil
}

// clickAt moves to pt and clicks there n times (2: a double click).
func (p *Page) clickAt(ctx context.Context, pt point, b input.MouseButton, n int) error {
	if err := p.pointerTo(ctx, pt); err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		if err := p.press(ctx, pt, b, i); err != nil {
			return err
		}
		if err := p.release(ctx, pt, b, i); err != nil {
			return err
		}
	}
	return nil
}

// heldButton is the button a move reports with buttons held (the first of
// them), or none.
func heldButton(held int) input.MouseButton {
	switch {
	case held&1 != 0:
		return input.MouseButtonLeft
	case held&2 != 0:
		return input.MouseButtonRight
	case held&4 != 0:
		return input.MouseButtonMiddle
	}
	return input.MouseButtonNone
}

// describeAt names what is under a point of the viewport, for feedback: "on
// 12[:]<button>Save</button>"; empty when it cannot tell.
func (p *Page) describeAt(ctx context.Context, pt point) string {
	hit, err := nodeAt(ctx, p.c, pt.X, pt.Y)
	if err != nil {
		return ""
	}
	el := &Element{p: p, c: p.c, backend: hit.BackendNodeID, key: frameKey{frame: hit.FrameID}}
	return el.describeNode(ctx)
}

// describeNode names the element (by backend id in its frame) for feedback:
// "on 12[:]<button>Save</button>", handing out a ref; empty when it cannot.
func (e *Element) describeNode(ctx context.Context) string {
	var desc string
	err := e.p.withWorld(ctx, e.key, func(w *worldIn) error {
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
	if ref, ok := e.p.refForNode(ctx, e.key, e.backend); ok {
		return fmt.Sprintf("on %d[:]%s", ref, desc)
	}
	return "on " + desc
}
