package wait

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/cdpmcp/cdpmcp/internal/poll"
	"github.com/mafredri/cdp"
)

// State is the state a wait waits for.
type State string

// Wait states, as in Playwright.
const (
	Visible  State = "visible"
	Attached State = "attached"
	Hidden   State = "hidden"
	Detached State = "detached"
)

// Spec says what to wait for: an element (by target) or a text, in a state.
type Spec struct {
	Target cdpclient.Target
	Text   string
	State  State
}

//go:embed js/*.js
var jsFiles embed.FS

// waitSource is the page function waitFor (js/wait.js) with the core's
// query, which finds a selector's element through open shadow roots as the
// core's own selectors do.
var waitSource = func() string {
	s := jsfunc.Load(jsFiles, "js")
	s["query"] = cdpclient.PageFunc("query")
	return s.With("waitFor", "query")
}()

// For waits until the condition holds and reports what the page did
// meanwhile. The duration is a deadline taken from ctx; reaching it fails with
// CodeTimeout. Navigations during the wait are followed: the condition is
// checked again in the new document.
func For(ctx context.Context, p *cdpclient.Page, w Spec) (*feedback.Feedback, error) {
	switch w.State {
	case "":
		w.State = Visible
	case Visible, Attached, Hidden, Detached:
	default:
		return nil, cdpclient.ArgErrorf("use visible, attached, hidden or detached", "state %q is not a wait state", string(w.State))
	}
	if w.Target.IsZero() == (w.Text == "") {
		return nil, cdpclient.ArgErrorf("pass exactly one of selector, text or ref", "waitFor needs one thing to wait for")
	}
	d := p.Door()
	return d.Run(ctx, cdpclient.ModeWait, func(ctx context.Context, _ *cdp.Client) error {
		_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
			if w.Target.Ref != "" {
				return forRef(ctx, p, w)
			}
			return forText(ctx, d, w)
		})
		return err
	})
}

// forText waits for a text or a selector: the page function watches the
// document until the condition holds or the time is up.
func forText(ctx context.Context, d cdpclient.Door, w Spec) error {
	kind, value := "text", w.Text
	if w.Text == "" {
		kind, value = "selector", w.Target.Selector
	}
	for {
		remaining := time.Until(deadlineOf(ctx))
		r, err := d.CallInWorld(ctx, waitSource, kind, value, string(w.State), remaining.Milliseconds())
		switch {
		case ctx.Err() != nil:
			return timedOut(ctx, d, w)
		case err != nil:
			// The document went away mid-wait (navigation): check the next one.
			if err := sleepCtx(ctx, 25*time.Millisecond); err != nil {
				return timedOut(ctx, d, w)
			}
			continue
		case r.ExceptionDetails != nil:
			if err := cdpclient.SelectorError(value, r.ExceptionDetails); err != nil {
				return err
			}
			if err := sleepCtx(ctx, 25*time.Millisecond); err != nil {
				return timedOut(ctx, d, w)
			}
			continue
		}
		if string(r.Result.Value) == "true" {
			return nil
		}
		if time.Until(deadlineOf(ctx)) < 20*time.Millisecond {
			return timedOut(ctx, d, w)
		}
	}
}

// forRef waits for an element a snapshot handed out, checking it every 50 ms.
func forRef(ctx context.Context, p *cdpclient.Page, w Spec) error {
	err := poll.Until(ctx, 50*time.Millisecond, func() (bool, error) {
		e, err := p.Resolve(ctx, cdpclient.Target{Ref: w.Target.Ref})
		gone := err != nil
		if err != nil && cdpclient.Classify(err).Code != cdpclient.CodeNotFound {
			return false, err
		}
		switch w.State {
		case Detached:
			return gone, nil
		case Attached:
			return !gone, nil
		}
		if gone {
			return w.State == Hidden, nil
		}
		st, err := e.Actionable(ctx, cdpclient.Need{}) // its state as it is
		if err != nil {
			return w.State == Hidden, nil
		}
		return st.Visible == (w.State == Visible), nil
	})
	if err != nil && ctx.Err() != nil {
		return timeout(w)
	}
	return err
}

// selectorCheckWait bounds the one check of a selector's syntax made when a
// wait for it ran out of time.
const selectorCheckWait = 2 * time.Second

// timedOut answers a wait for text or a selector that ran out of time. A
// selector the page cannot parse is said to be invalid, not late: on a busy
// machine the time can run out before the page answered a single check.
func timedOut(ctx context.Context, d cdpclient.Door, w Spec) error {
	if w.Text == "" && w.Target.Selector != "" {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), selectorCheckWait)
		defer cancel()
		r, err := d.CallInWorld(cctx, waitSource, "selector", w.Target.Selector, string(w.State), 0)
		if err == nil && r.ExceptionDetails != nil {
			if err := cdpclient.SelectorError(w.Target.Selector, r.ExceptionDetails); err != nil {
				return err
			}
		}
	}
	return timeout(w)
}

func timeout(w Spec) error {
	what := w.Target.String()
	if w.Text != "" {
		what = fmt.Sprintf("text %q", w.Text)
	}
	return &cdpclient.Error{Code: cdpclient.CodeTimeout, Msg: fmt.Sprintf("%s did not become %s in time", what, w.State),
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
