package cdpclient

import (
	"context"
	"errors"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/internal/poll"
)

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
		case n.editable && (!st.Editable || st.Readonly):
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

// requireTarget refuses an element action that names no element.
func requireTarget(t Target) error {
	if t.IsZero() {
		return ArgErrorf("pass ref (from snapshot) or selector", "no target element given")
	}
	return nil
}

// onElement is an input action on the target element; lateMs as in action.
func (p *Page) onElement(ctx context.Context, t Target, lateMs int, run func(ctx context.Context, e *Element) (string, error)) (*feedback.Feedback, error) {
	if err := requireTarget(t); err != nil {
		return nil, err
	}
	return p.perform(ctx, action{kind: actInput, target: t, resolve: true, lateMs: lateMs, run: run})
}

// Click clicks the centre of the element's visible box with real mouse events,
// after scrolling it into view and checking that nothing covers it, and reports
// what happened.
func (p *Page) Click(ctx context.Context, t Target, opts ClickOptions) (*feedback.Feedback, error) {
	button, err := ParseButton(opts.Button)
	if err != nil {
		return nil, err
	}
	mods, err := parseModifiers(opts.Modifiers)
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
	return p.onElement(ctx, t, lateFrame, func(ctx context.Context, e *Element) (string, error) {
		if _, err := e.actionable(ctx, need{visible: true, enabled: true}); err != nil {
			return "", err
		}
		return "", p.clickGuarded(ctx, e, button, count, mods)
	})
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
