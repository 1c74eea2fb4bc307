package cdpclient

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// WaitState is the state a waitFor waits for.
type WaitState string

// Wait states, as in Playwright.
const (
	StateVisible  WaitState = "visible"
	StateAttached WaitState = "attached"
	StateHidden   WaitState = "hidden"
	StateDetached WaitState = "detached"
)

// WaitSpec says what to wait for: an element (by target) or a text, in a state.
type WaitSpec struct {
	Target Target
	Text   string
	State  WaitState
}

// WaitFor waits until the condition holds and reports what the page did
// meanwhile. The duration is a deadline taken from ctx; reaching it fails with
// CodeTimeout. Navigations during the wait are followed: the condition is checked
// again in the new document.
func (p *Page) WaitFor(ctx context.Context, w WaitSpec) (*feedback.Feedback, error) {
	switch w.State {
	case "":
		w.State = StateVisible
	case StateVisible, StateAttached, StateHidden, StateDetached:
	default:
		return nil, argError("use visible, attached, hidden or detached", "state %q is not a wait state", string(w.State))
	}
	if w.Target.IsZero() == (w.Text == "") {
		return nil, argError("pass exactly one of selector, text or ref", "waitFor needs one thing to wait for")
	}
	return p.perform(ctx, action{kind: actWatch, target: w.Target, run: func(ctx context.Context, _ *Element) (string, error) {
		return "", p.waitFor(ctx, w)
	}})
}

func (p *Page) waitFor(ctx context.Context, w WaitSpec) error {
	return p.do(ctx, func(ctx context.Context) error {
		if w.Target.Ref != "" {
			return p.waitForRef(ctx, w)
		}
		kind, value := "text", w.Text
		if w.Text == "" {
			kind, value = "selector", w.Target.Selector
		}
		for {
			remaining := time.Until(deadlineOf(ctx))
			r, err := p.evalFunc(ctx, jsWith("waitFor", "query"), true, kind, value, string(w.State), remaining.Milliseconds())
			switch {
			case ctx.Err() != nil:
				return p.timedOut(ctx, w)
			case err != nil:
				// The document went away mid-wait (navigation): check the next one.
				if err := sleepCtx(ctx, 25*time.Millisecond); err != nil {
					return p.timedOut(ctx, w)
				}
				continue
			case r.ExceptionDetails != nil:
				if err := selectorErr(value, r.ExceptionDetails); err != nil {
					return err
				}
				if err := sleepCtx(ctx, 25*time.Millisecond); err != nil {
					return p.timedOut(ctx, w)
				}
				continue
			}
			if string(r.Result.Value) == "true" {
				return nil
			}
			if time.Until(deadlineOf(ctx)) < 20*time.Millisecond {
				return p.timedOut(ctx, w)
			}
		}
	})
}

func (p *Page) waitForRef(ctx context.Context, w WaitSpec) error {
	err := poll(ctx, 50*time.Millisecond, func() (bool, error) {
		e, err := p.resolveRef(ctx, w.Target.Ref)
		gone := err != nil
		if err != nil && Classify(err).Code != CodeNotFound {
			return false, err
		}
		switch w.State {
		case StateDetached:
			return gone, nil
		case StateAttached:
			return !gone, nil
		}
		if gone {
			return w.State == StateHidden, nil
		}
		st, err := e.state(ctx)
		if err != nil {
			return w.State == StateHidden, nil
		}
		return st.Visible == (w.State == StateVisible), nil
	})
	if err != nil && ctx.Err() != nil {
		return p.waitTimeout(w)
	}
	return err
}

// selectorCheckWait bounds the one check of a selector's syntax made when a
// wait for it ran out of time.
const selectorCheckWait = 2 * time.Second

// timedOut answers a wait for text or a selector that ran out of time. A
// selector the page cannot parse is said to be invalid, not late: on a busy
// machine the time can run out before the page answered a single check.
func (p *Page) timedOut(ctx context.Context, w WaitSpec) error {
	if w.Text == "" && w.Target.Selector != "" {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), selectorCheckWait)
		defer cancel()
		r, err := p.evalFunc(cctx, jsWith("waitFor", "query"), true, "selector", w.Target.Selector, string(w.State), 0)
		if err == nil && r.ExceptionDetails != nil {
			if err := selectorErr(w.Target.Selector, r.ExceptionDetails); err != nil {
				return err
			}
		}
	}
	return p.waitTimeout(w)
}

func (p *Page) waitTimeout(w WaitSpec) error {
	what := w.Target.String()
	if w.Text != "" {
		what = fmt.Sprintf("text %q", w.Text)
	}
	return &Error{Code: CodeTimeout, Msg: fmt.Sprintf("%s did not become %s in time", what, w.State),
		Hint: "take a snapshot to see what the page shows, or raise timeoutMs"}
}

// deadlineOf returns ctx's deadline, or one minute from now when it has none.
func deadlineOf(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Minute)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
