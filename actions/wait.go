package actions

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/wait"
)

const (
	waitTimeout = 10 * time.Second
	maxSleep    = 30 * time.Second
)

type waitForArgs struct {
	Selector  string `json:"selector"`
	Text      string `json:"text" desc:"visible text to wait for"`
	Ref       Ref    `json:"ref"`
	State     string `json:"state" enum:"visible,attached,hidden,detached" desc:"default visible"`
	TimeoutMs int    `json:"timeoutMs" desc:"ms, default 10000"`
	Page      string `json:"page"`
}

// WaitFor waits until an element or a text reaches a state.
var WaitFor = define("waitFor", "Wait until an element or text is visible, attached, hidden or detached.",
	ClassNavigate, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a waitForArgs) (*Result, error) {
		n := 0
		for _, v := range []string{string(a.Ref), a.Selector, a.Text} {
			if v != "" {
				n++
			}
		}
		if n != 1 {
			return nil, argErr(`for example {"text":"Order placed"} or {"selector":"#results li"}`, "pass exactly one of selector, text or ref")
		}
		ctx, cancel, err := deadline(ctx, a.TimeoutMs, waitTimeout)
		if err != nil {
			return nil, err
		}
		defer cancel()
		t := cdpclient.Target{Ref: string(a.Ref), Selector: a.Selector}
		spec := wait.Spec{Target: t, Text: a.Text, State: wait.State(a.State)}
		return env.onPage(ctx, a.Page, "waitFor", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return wait.For(ctx, p, spec)
		})
	}).ownTimeout()

type waitForTimeoutArgs struct {
	Ms *int `json:"ms" required:"true" desc:"milliseconds"`
}

// WaitForTimeout sleeps.
var WaitForTimeout = define("waitForTimeout", fmt.Sprintf("Sleep for ms milliseconds (max %d). Prefer waitFor.", maxSleep.Milliseconds()),
	ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, a waitForTimeoutArgs) (*Result, error) {
		if a.Ms == nil || *a.Ms < 0 {
			return nil, argErr(`for example {"ms":500}`, "argument %q must be a number of milliseconds ≥ 0", "ms")
		}
		d := time.Duration(*a.Ms) * time.Millisecond
		note := ""
		if d > maxSleep {
			d, note = maxSleep, fmt.Sprintf(" (capped at %d ms)", maxSleep.Milliseconds())
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &Result{Text: fmt.Sprintf("waited %d ms%s", d.Milliseconds(), note)}, nil
	}).ownTimeout()
