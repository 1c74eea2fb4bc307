package jobs

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagefacts"
)

// login signs in on the job's page. selectors are optional overrides:
// [user field, password field, submit button]. A page only a person can pass
// (a CAPTCHA, a password nobody gave, a sign-in the site refused) waits for a
// person when the job allows a handoff, and fails with the reason otherwise.
func (t *taskRun) login(ctx context.Context) outcome {
	if err := t.open(ctx); err != nil {
		return outcome{err: err}
	}
	state, err := t.loginState(ctx)
	if err != nil {
		return outcome{err: err}
	}
	switch {
	case state.Captcha:
		return t.afterHuman(ctx, "the sign-in page shows a CAPTCHA")
	case !state.Password:
		return outcome{summary: "no sign-in form on " + t.page.URL() + ": signed in already", finalURL: t.page.URL()}
	case t.secret == "":
		return t.afterHuman(ctx, "the page asks for a password and the job has none")
	}
	sel := func(i int, fallback string) string {
		if i < len(t.job.Task.Selectors) && t.job.Task.Selectors[i] != "" {
			return t.job.Task.Selectors[i]
		}
		return fallback
	}
	t.r.progress(0.6, "signing in")
	if user := sel(0, state.User); t.job.Task.Username != "" && user != "" {
		target := cdpclient.Target{Selector: user}
		if err := t.act(ctx, "type", target, func(ctx context.Context) (*feedback.Feedback, error) {
			return input.Type(ctx, t.page, target, t.job.Task.Username, true, false)
		}); err != nil {
			return outcome{err: err}
		}
	}
	pw := cdpclient.Target{Selector: sel(1, "input[type=password]")}
	submit := sel(2, "")
	if err := t.act(ctx, "type", pw, func(ctx context.Context) (*feedback.Feedback, error) {
		return input.Type(ctx, t.page, pw, t.secret, true, submit == "")
	}); err != nil {
		return outcome{err: err}
	}
	if submit != "" {
		target := cdpclient.Target{Selector: submit}
		if err := t.act(ctx, "click", target, func(ctx context.Context) (*feedback.Feedback, error) {
			return t.page.Click(ctx, target, cdpclient.ClickOptions{})
		}); err != nil {
			return outcome{err: err}
		}
	}
	after, err := t.loginState(ctx)
	if err != nil {
		return outcome{err: err}
	}
	if after.Password || after.Captcha {
		return t.afterHuman(ctx, "the site did not accept the sign-in: the page still asks for a password")
	}
	return outcome{summary: "signed in on " + t.page.URL(), finalURL: t.page.URL()}
}

// afterHuman hands the tab to a person for reason (or fails with it) and,
// once resumed, checks that the page is past the sign-in.
func (t *taskRun) afterHuman(ctx context.Context, reason string) outcome {
	if _, err := t.waitForHuman(ctx, reason); err != nil {
		return outcome{err: err}
	}
	state, err := t.loginState(ctx)
	if err != nil {
		return outcome{err: err}
	}
	if state.Password || state.Captcha {
		return outcome{err: fmt.Errorf("still not signed in after a person's help: the page at %s asks for a password", t.page.URL())}
	}
	return outcome{summary: "signed in with a person's help on " + t.page.URL(), finalURL: t.page.URL()}
}

func (t *taskRun) loginState(ctx context.Context) (*pagefacts.Login, error) {
	facts, err := pagefacts.Read(ctx, t.page, nil, pagefacts.Options{Login: true})
	if err != nil {
		return nil, err
	}
	t.rec.Action("sign-in-check", map[string]any{"password": facts.Login.Password, "captcha": facts.Login.Captcha, "url": facts.URL})
	return facts.Login, nil
}
