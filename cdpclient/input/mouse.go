package input

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/inputnames"
	"github.com/mafredri/cdp"
	cdpinput "github.com/mafredri/cdp/protocol/input"
)

// point is a position in CSS pixels of the main frame's viewport.
type point = cdpclient.Point

// pointer is what the mouse holds between calls on a page (kept in its
// Door.Slot): the buttons pressed (a mask: 1 left, 2 right, 4 middle) and
// where it last was, so a down in one call and an up in another make one
// gesture.
type pointer struct {
	mu      sync.Mutex
	buttons int
	at      point
}

type pointerKey struct{}

func (p *tab) pointer() *pointer {
	return p.d.Slot(pointerKey{}, func() any { return &pointer{} }).(*pointer)
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
	Button cdpclient.MouseButton // default left
}

// Mouse does what in says at viewport coordinates, for canvas apps, maps and
// games that have no elements to name, and reports what happened and what was
// under the pointer.
func Mouse(ctx context.Context, page *cdpclient.Page, in MouseInput) (*feedback.Feedback, error) {
	button, err := inputnames.ParseButton(string(in.Button))
	if err != nil {
		return nil, err
	}
	switch in.Action {
	case "move", "click", "dblclick", "down", "up", "wheel", "drag":
	default:
		return nil, cdpclient.ArgErrorf("use move, click, dblclick, down, up, wheel or drag", "mouse action %q is not known", in.Action)
	}
	if in.Action == "wheel" && in.DX == 0 && in.DY == 0 {
		return nil, cdpclient.ArgErrorf(`give dy (down) or dx (right) in pixels, e.g. {"action":"wheel","x":200,"y":150,"dy":300}`, "a wheel needs dx or dy")
	}
	at := point{X: in.X, Y: in.Y}
	p := on(page)
	return p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{LateMs: cdpclient.LateFrame}), func(ctx context.Context, _ *cdp.Client) error {
		if err := p.inViewport(ctx, at); err != nil {
			return err
		}
		if err := p.d.Input().ToFront(ctx); err != nil {
			return err
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
				return err
			}
			var main *cdpclient.Element
			if main, err = p.d.Input().Document(ctx); err == nil {
				_, err = p.dragPath(ctx, at, func(context.Context) (point, error) { return to, nil }, main)
			}
		}
		if err != nil {
			return err
		}
		cdpclient.ReportValue(ctx, p.d.Input().DescribeAt(ctx, at))
		return nil
	})
}

// inViewport refuses a point outside the viewport, naming its size.
func (p *tab) inViewport(ctx context.Context, pt point) error {
	m, err := p.c.Page.GetLayoutMetrics(ctx)
	if err != nil {
		return fmt.Errorf("layout metrics: %w", err)
	}
	w, h := float64(m.CSSLayoutViewport.ClientWidth), float64(m.CSSLayoutViewport.ClientHeight)
	if pt.X < 0 || pt.Y < 0 || pt.X >= w || pt.Y >= h || math.IsNaN(pt.X+pt.Y) {
		return cdpclient.ArgErrorf(fmt.Sprintf("the viewport is %.0f×%.0f CSS pixels: give 0 ≤ x < %.0f and 0 ≤ y < %.0f (scroll to reach the rest)", w, h, w, h),
			"point %.0f,%.0f is outside the viewport", pt.X, pt.Y)
	}
	return nil
}

// pointerTo moves the mouse to pt with the buttons held that are held.
func (p *tab) pointerTo(ctx context.Context, pt point) error {
	cdpclient.Dispatched(ctx)
	ptr := p.pointer()
	ptr.mu.Lock()
	held := ptr.buttons
	ptr.mu.Unlock()
	ev := cdpinput.NewDispatchMouseEventArgs("mouseMoved", pt.X, pt.Y).SetButtons(held).SetButton(heldButton(held))
	if err := p.c.Input.DispatchMouseEvent(ctx, ev); err != nil {
		return fmt.Errorf("mouse move: %w", err)
	}
	ptr.mu.Lock()
	ptr.at = pt
	ptr.mu.Unlock()
	return nil
}

// press and release push and let go of a button where the mouse is.
func (p *tab) press(ctx context.Context, pt point, b cdpinput.MouseButton, count int) error {
	return p.pressOrRelease(ctx, "mousePressed", pt, b, count)
}

func (p *tab) release(ctx context.Context, pt point, b cdpinput.MouseButton, count int) error {
	return p.pressOrRelease(ctx, "mouseReleased", pt, b, count)
}

func (p *tab) pressOrRelease(ctx context.Context, typ string, pt point, b cdpinput.MouseButton, count int) error {
	cdpclient.Dispatched(ctx)
	ptr := p.pointer()
	ptr.mu.Lock()
	if typ == "mousePressed" {
		ptr.buttons |= inputnames.ButtonMask(b)
	} else {
		ptr.buttons &^= inputnames.ButtonMask(b)
	}
	held := ptr.buttons
	ptr.mu.Unlock()
	ev := cdpinput.NewDispatchMouseEventArgs(typ, pt.X, pt.Y).SetButton(b).SetButtons(held).SetClickCount(count)
	if err := p.c.Input.DispatchMouseEvent(ctx, ev); err != nil {
		return fmt.Errorf("%s: %w", typ, err)
	}
	return nil
}

// clickAt moves to pt and clicks there n times (2: a double click).
func (p *tab) clickAt(ctx context.Context, pt point, b cdpinput.MouseButton, n int) error {
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
func heldButton(held int) cdpinput.MouseButton {
	switch {
	case held&1 != 0:
		return cdpinput.MouseButtonLeft
	case held&2 != 0:
		return cdpinput.MouseButtonRight
	case held&4 != 0:
		return cdpinput.MouseButtonMiddle
	}
	return cdpinput.MouseButtonNone
}
