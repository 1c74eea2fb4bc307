package jobs_test

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// A login job waits for the site's answer however it comes late: the page
// going on 1.2 s after the answer, or shown the error then; a form that gives
// way to "Signing in…" while the server takes 1.5 s is not signed in until
// the dashboard shows, and with a wrong password fails with the error the
// form comes back with; a site that asks for a one-time code next is not
// signed in: it waits for a person.
func TestLoginJudgedWhenTheOutcomeComesLate(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 4})
	login := func(id, mode, password string, handoff bool) *jobs.Job {
		return q.submit(t, jobs.SubmitRequest{CorrelationID: id, URL: site.URL("/behave/signin-late.html?mode=" + mode), HandoffAllowed: handoff,
			Task: jobs.Task{Type: jobs.TaskLogin, Username: "ada@example.com", Password: password}})
	}
	cases := []struct {
		j         *jobs.Job
		state     jobs.State
		want, url string
	}{
		{login("timer-ok", "timer", fixtures.LoginPassword, false), jobs.Succeeded, "went to this page", "/behave/signed-in.html"},
		{login("timer-wrong", "timer", "nope", false), jobs.Failed, `it says "Wrong email or password."`, ""},
		{login("spinner-ok", "spinner", fixtures.LoginPassword, false), jobs.Succeeded, "went to this page", "/behave/dashboard"},
		{login("spinner-wrong", "spinner", "nope", false), jobs.Failed, `it says "Wrong email or password."`, ""},
		{login("spinner-slow-ok", "spinner&ms=4000", fixtures.LoginPassword, false), jobs.Succeeded, "went to this page", "/behave/dashboard"},
		{login("spinner-slow-wrong", "spinner&ms=4000", "nope", false), jobs.Failed, `it says "Wrong email or password."`, ""},
		{login("otp", "otp", fixtures.LoginPassword, true), jobs.WaitingForHuman, "one-time code", ""},
	}
	for _, c := range cases {
		d, seen := q.wait(t, c.j.ID, jobs.Succeeded, jobs.Failed, jobs.WaitingForHuman)
		text := d.Summary + " " + d.Error
		if d.State != c.state || !strings.Contains(text, c.want) || c.url != "" && !strings.HasSuffix(d.FinalURL, c.url) {
			t.Errorf("%s: %s %q %q %s (seen %v), want %s with %q", c.j.CorrelationID, d.State, d.Error, d.Summary, d.FinalURL, seen, c.state, c.want)
		}
	}
}
