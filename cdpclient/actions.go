package cdpclient

import (
	"context"
	"errors"
	"time"
)

// actionabilityWait is how long an action waits for its element to become visible
// and enabled before it reports why it could not act. ctx may end it sooner.
const actionabilityWait = time.Second

// need says which states an action requires of its element.
type need struct{ visible, enabled, editable bool }

// actionable waits (up to actionabilityWait) until the element has the needed
// states and returns the last state seen; otherwise a classified *Error.
func (e *Element) actionable(ctx context.Context, n need) (elementState, error) {
	wctx, cancel := context.WithTimeout(ctx, actionabilityWait)
	defer cancel()
	var st elementState
	var last error
	err := poll(wctx, 50*time.Millisecond, func() (bool, error) {
		var err error
		if st, err = e.state(wctx); err != nil {
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

// Click clicks the centre of the element's visible box with real mouse events,
// after scrolling it into view and checking that nothing covers it.
func (p *Page) Click(ctx context.Context, t Target, opts ClickOptions) error {
	button, err := parseButton(opts.Button)
	if err != nil {
		return err
	}
	mods, err := parseModifiers(opts.Modifiers)
	if err != nil {
		return err
	}
	count := opts.ClickCount
	if count <= 0 {
		count = 1
	}
	if count > 3 {
		return argError("use clickCount 1, 2 or 3", "clickCount %d is too large", count)
	}
	return p.withElement(ctx, t, func(ctx context.Context, e *Element) error {
		if _, err := e.actionable(ctx, need{visible: true, enabled: true}); err != nil {
			return err
		}
		pt, err := e.clickablePoint(ctx)
		if err != nil {
			return err
		}
		return p.mouseClick(ctx, pt.X, pt.Y, button, count, mods)
	})
}

// Hover moves the mouse over the centre of the element.
func (p *Page) Hover(ctx context.Context, t Target) error {
	return p.withElement(ctx, t, func(ctx context.Context, e *Element) error {
		if _, err := e.actionable(ctx, need{visible: true}); err != nil {
			return err
		}
		pt, err := e.clickablePoint(ctx)
		if err != nil {
			return err
		}
		return p.mouseMove(ctx, pt.X, pt.Y, 0)
	})
}

// withElement runs fn with the target resolved, the page's action lock held and
// the page guarded against dialogs, crashes and closing.
func (p *Page) withElement(ctx context.Context, t Target, fn func(context.Context, *Element) error) error {
	return p.do(ctx, func(ctx context.Context) error {
		e, err := p.Resolve(ctx, t)
		if err != nil {
			return err
		}
		return fn(ctx, e)
	})
}

// do runs fn under the page's action lock, guarded, and releases the remote objects
// it created.
func (p *Page) do(ctx context.Context, fn func(context.Context) error) error {
	if err := p.usable(); err != nil {
		return err
	}
	outer := ctx.Value(actLock{p}) == nil
	if outer {
		var end func()
		ctx, end = p.beginAction(ctx)
		defer end()
	}
	gctx, cancel := p.guard(ctx)
	defer cancel()
	err := cause(gctx, fn(gctx))
	if outer {
		err = p.recoverIfStuck(err)
	}
	return err
}
