package cdpclient

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/inputnames"
	"github.com/mafredri/cdp/protocol/input"
)

// Click clicks the centre of the element's visible box with real mouse events,
// after scrolling it into view and checking that nothing covers it, and reports
// what happened.
func (p *Page) Click(ctx context.Context, t Target, opts ClickOptions) (*feedback.Feedback, error) {
	button, err := inputnames.ParseButton(string(opts.Button))
	if err != nil {
		return nil, err
	}
	mods, err := inputnames.ParseModifiers(opts.Modifiers)
	if err != nil {
		return nil, err
	}
	count := opts.ClickCount
	if count <= 0 {
		count = 1
	}
	if count > 3 {
		return nil, ArgErrorf("use clickCount 1, 2 or 3", "clickCount %d is too large", count)
	}
	if err := requireTarget(t); err != nil {
		return nil, err
	}
	// clickReady goes out with the round trip that finds a ref's element.
	return p.perform(ctx, action{kind: actInput, target: t, resolve: true, lateMs: lateFrame, ready: clickReadyJS,
		run: func(ctx context.Context, e *Element) (string, error) {
			return "", e.click(ctx, button, count, mods)
		}})
}

// click clicks the element: at once when clickReady finds it ready, else once
// actionable says it can be clicked.
func (e *Element) click(ctx context.Context, button input.MouseButton, count, mods int) error {
	if pt, ok := e.clickReady(ctx); ok {
		return e.p.clickGuarded(ctx, e, &pt, button, count, mods)
	}
	if _, err := e.actionable(ctx, need{visible: true, enabled: true}); err != nil {
		return err
	}
	return e.p.clickGuarded(ctx, e, nil, button, count, mods)
}

var clickReadyJS = jsWith("clickReady", "state", "clickPoint", "armClickGuard")

// clickReady is the common click's preparation in one round trip
// (js/clickguard.js): the element is visible and enabled, its click point
// reaches it, and the click guard is armed there. ok is false when any of it
// is not so (or the element is in another process's frame): the caller then
// waits, measures and arms step by step, which also words why it cannot click.
func (e *Element) clickReady(ctx context.Context) (Point, bool) {
	var r struct {
		Point *struct{ X, Y float64 }
		Armed bool
	}
	if !e.readyValue(&r) && e.callSrc(ctx, "clickReady", clickReadyJS, &r) != nil || r.Point == nil || !r.Armed {
		return Point{}, false
	}
	return Point{X: r.Point.X, Y: r.Point.Y}, true
}

// Hover moves the mouse over the centre of the element and reports what that
// showed (a menu, a tooltip).
func (p *Page) Hover(ctx context.Context, t Target) (*feedback.Feedback, error) {
	return p.onElement(ctx, t, 0, func(ctx context.Context, e *Element) (string, error) {
		if _, err := e.actionable(ctx, need{visible: true}); err != nil {
			return "", err
		}
		pt, err := e.clickablePoint(ctx)
		if err != nil {
			return "", err
		}
		markDispatched(ctx)
		return "", p.mouseMove(ctx, pt.X, pt.Y, 0)
	})
}

// clickTries is how often a click whose element moved away from under the
// pointer is measured and sent again before it fails.
const clickTries = 3

// clickGuarded clicks the element where clickablePoint measured it, with a
// click guard armed (js/clickguard.js): a page that moved between the measure
// and the click (text filled in above the element, a late banner) does not
// get the click on whatever moved there. The guard stops such a click before
// the page sees it; the element is measured and clicked again, up to
// clickTries times, and then the click fails as one that did not happen.
// ready, when not nil, is where clickReady measured the element and armed the
// guard: the first try clicks there.
func (p *Page) clickGuarded(ctx context.Context, e *Element, ready *Point, button input.MouseButton, count, mods int) error {
	for try := 1; ; try++ {
		pt, armed := Point{}, true
		if ready != nil {
			pt, ready = *ready, nil
		} else {
			var err error
			if pt, err = e.clickablePoint(ctx); err != nil {
				return err
			}
			if e.call(ctx, "armClickGuard", &armed) != nil {
				armed = false // a frame it cannot reach: the hit check before is all there is
			}
		}
		if err := p.mouseClick(ctx, pt.X, pt.Y, button, count, mods); err != nil {
			return err
		}
		if !armed {
			return nil
		}
		// The guard's verdict and settle's first round trip go out together.
		p.earlySignal(ctx)
		var r struct {
			Blocked bool
			Hit     string
		}
		// An error here is the click's doing (it left the document): it landed.
		if e.call(ctx, "clickGuardResult", &r) != nil || !r.Blocked {
			return nil
		}
		slog.Debug("the page moved under a click; measuring again", "try", try, "hit", r.Hit)
		if try == clickTries {
			unmarkDispatched(ctx)
			return &Error{Code: CodeObscured,
				Msg:  fmt.Sprintf("the page kept moving under the click: %d times, %s was where the element had been; nothing was clicked", clickTries, r.Hit),
				Hint: "wait until the page settles (waitFor the content it is loading), then click again"}
		}
	}
}

// MouseButton names a mouse button: left, right or middle.
type MouseButton string

// ClickOptions modify a click.
type ClickOptions struct {
	Button     MouseButton // default left
	ClickCount int         // default 1; 2 double-clicks
	Modifiers  []string    // held keys: Alt, Control, Meta, Shift
}

// mouseClick moves to (x, y) and clicks there count times. The move and the
// first press go out in order without waiting in between: the browser answers
// a move only at the page's next frame (moves are aligned to frames), while a
// press behind it is delivered at once, the move first. Waiting for the move's
// answer would add up to a frame to every click.
func (p *Page) mouseClick(ctx context.Context, x, y float64, button input.MouseButton, count, mods int) error {
	if err := p.toFront(ctx); err != nil {
		return err
	}
	for i := 1; i <= count; i++ {
		down := input.NewDispatchMouseEventArgs("mousePressed", x, y).SetButton(button).
			SetButtons(inputnames.ButtonMask(button)).SetClickCount(i).SetModifiers(mods)
		press := func() error {
			markDispatched(ctx)
			if err := p.c.Input.DispatchMouseEvent(ctx, down); err != nil {
				return fmt.Errorf("mouse down: %w", err)
			}
			return nil
		}
		if i > 1 {
			if err := press(); err != nil {
				return err
			}
		} else if err := p.movePress(ctx, x, y, mods, press); err != nil {
			return err
		}
		up := input.NewDispatchMouseEventArgs("mouseReleased", x, y).SetButton(button).
			SetButtons(0).SetClickCount(i).SetModifiers(mods)
		if err := p.c.Input.DispatchMouseEvent(ctx, up); err != nil {
			return fmt.Errorf("mouse up: %w", err)
		}
	}
	return nil
}

// movePress sends a move to (x, y) and then press in order, waiting for both
// answers at once. A move that fails is the error.
func (p *Page) movePress(ctx context.Context, x, y float64, mods int, press func() error) error {
	var moveErr error
	move := func() error {
		moveErr = p.c.Input.DispatchMouseEvent(ctx, input.NewDispatchMouseEventArgs("mouseMoved", x, y).SetModifiers(mods))
		return nil
	}
	err := p.s.wire.InOrder(move, press)
	if moveErr != nil {
		return fmt.Errorf("mouse move: %w", moveErr)
	}
	return err
}

func (p *Page) mouseMove(ctx context.Context, x, y float64, mods int) error {
	if err := p.toFront(ctx); err != nil {
		return err
	}
	mv := input.NewDispatchMouseEventArgs("mouseMoved", x, y).SetModifiers(mods)
	if err := p.c.Input.DispatchMouseEvent(ctx, mv); err != nil {
		return fmt.Errorf("mouse move: %w", err)
	}
	return nil
}
