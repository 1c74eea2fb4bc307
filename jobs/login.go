package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
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
		if _, err := t.act(ctx, actions.Type, user, map[string]any{"text": t.job.Task.Username, "clear": true}); err != nil {
			return outcome{err: err}
		}
	}
	submit := sel(2, "")
	from, mark := t.page.URL(), t.requestMark()
	if _, err := t.act(ctx, actions.Type, sel(1, "input[type=password]"), map[string]any{"text": t.secret, "clear": true, "submit": submit == ""}); err != nil {
		return outcome{err: err}
	}
	if submit != "" {
		if _, err := t.act(ctx, actions.Click, submit, nil); err != nil {
			return outcome{err: err}
		}
	}
	t.r.progress(0.8, "waiting for the site's answer to the sign-in")
	after, how, err := t.signInOutcome(ctx, state, from, mark)
	if err != nil {
		return outcome{err: err}
	}
	switch {
	case after.Captcha:
		return t.afterHuman(ctx, "the site asks for a CAPTCHA after the sign-in")
	case after.OTP && !after.Password:
		return t.afterHuman(ctx, "the site asks for a one-time code after the password (two-step verification)")
	case after.Password && after.Error != "":
		return t.afterHuman(ctx, fmt.Sprintf("the site did not accept the sign-in: it says %q", after.Error))
	case after.Password:
		return t.afterHuman(ctx, fmt.Sprintf("the site did not accept the sign-in: the page still asks for a password %s after the submit, and shows no message", signInWait(t.loadWait)))
	}
	return outcome{summary: "signed in on " + t.page.URL() + ": " + how, finalURL: t.page.URL()}
}

const (
	// signInLimit bounds the wait for a sign-in's outcome: a site that gives
	// none in this time gives none.
	signInLimit = 20 * time.Second
	// signInPoll is how often the page is read for it.
	signInPoll = 250 * time.Millisecond
)

// signInWait is how long a submitted sign-in's outcome is waited for: at
// most signInLimit, and never more than the part of the job's time a load
// may take (loadWait).
func signInWait(loadWait time.Duration) time.Duration {
	if loadWait > 0 {
		return min(signInLimit, loadWait)
	}
	return signInLimit
}

// signInOutcome waits, after the sign-in was submitted from the page at
// from (its log at mark), for what the site made of it: the password field
// going away (signed in; how says whether the page went elsewhere; on the
// same page, only once the page's calls since the submit were answered: a
// form that gives way to "Signing in…" may come back with an error), a
// message the page shows while it still asks for a password (refused: Error
// is set; a message there before the submit counts once it changed or the
// wait ended), a field for a one-time code, or a CAPTCHA. When none comes
// within signInWait it returns the page as it is.
func (t *taskRun) signInOutcome(ctx context.Context, before *pagefacts.Login, from string, mark int) (*pagefacts.Login, string, error) {
	wait := signInWait(t.loadWait)
	deadline := time.Now().Add(wait)
	var state *pagefacts.Login
	var err error
	for {
		facts, rerr := pagefacts.Read(ctx, t.page, nil, pagefacts.Options{Login: true})
		if rerr == nil {
			state, err = facts.Login, nil
			switch {
			case state.OTP && !state.Password:
				t.recordSignIn(state, "")
				return state, "", nil
			case !state.Password && !state.Captcha && facts.URL != from:
				return t.signedIn(state, "the site went to this page after the submit")
			case !state.Password && !state.Captcha && t.callsOpen(mark) && time.Now().Before(deadline):
				// The form gave way while the site still checks.
			case !state.Password && !state.Captcha:
				return t.signedIn(state, "the password field went away after the submit")
			case state.Captcha, state.Error != "" && state.Error != before.Error:
				t.recordSignIn(state, "")
				return state, "", nil
			}
		} else {
			err = rerr // read again: the page may be between two documents
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(signInPoll):
		}
	}
	if state == nil {
		return nil, "", err
	}
	t.recordSignIn(state, "")
	return state, "", nil
}

func (t *taskRun) signedIn(state *pagefacts.Login, how string) (*pagefacts.Login, string, error) {
	t.recordSignIn(state, how)
	return state, how, nil
}

// recordSignIn writes the sign-in's outcome to the job's trace.
func (t *taskRun) recordSignIn(state *pagefacts.Login, how string) {
	t.rec.Action("sign-in-outcome", map[string]any{"password": state.Password, "captcha": state.Captcha,
		"error": state.Error, "signedIn": how, "url": t.page.URL()})
}

// maxHelpRounds is how many times a job asks a person to get it past a
// sign-in before it fails: once more when they resumed it still signed out.
const maxHelpRounds = 2

// afterHuman hands the tab to a person for reason (or fails with it) and,
// once resumed, checks that the page is past the sign-in. A person who
// resumed it still signed out is asked once more; after that the job fails
// with what the page shows (a person's outcome, never cdpmcp's failure).
func (t *taskRun) afterHuman(ctx context.Context, reason string) outcome {
	for round := 1; ; round++ {
		if _, err := t.waitForHuman(ctx, reason); err != nil {
			return outcome{err: err}
		}
		state, err := t.loginState(ctx)
		if err != nil {
			return outcome{err: err}
		}
		if !state.Password && !state.Captcha && !state.OTP {
			return outcome{summary: "signed in with a person's help on " + t.page.URL(), finalURL: t.page.URL()}
		}
		what := "asks for a password"
		if !state.Password && state.OTP {
			what = "asks for a one-time code"
		}
		if state.Error != "" {
			what += fmt.Sprintf(" and says %q", state.Error)
		}
		if state.Captcha {
			what = "shows a CAPTCHA"
		}
		reason = fmt.Sprintf("still not signed in after a person's help: the page at %s %s", t.page.URL(), what)
		if round >= maxHelpRounds {
			return outcome{err: &PersonError{Reason: fmt.Sprintf("%s (a person was asked %d times)", reason, round)}}
		}
	}
}

func (t *taskRun) loginState(ctx context.Context) (*pagefacts.Login, error) {
	facts, err := pagefacts.Read(ctx, t.page, nil, pagefacts.Options{Login: true})
	if err != nil {
		return nil, err
	}
	t.rec.Action("sign-in-check", map[string]any{"password": facts.Login.Password, "captcha": facts.Login.Captcha, "url": facts.URL})
	return facts.Login, nil
}
