package jobs_test

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// A login job judges the sign-in by what the site did with it, however late:
// on the commonest sign-in (the submit handler fetches the credentials, the
// server answers in half a second, the page goes on 150 ms later) it is
// signed in, with the press of Enter and with a click on the button; with a
// wrong password it fails with the error the page shows.
func TestLoginJudgedByOutcome(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 3})
	page := site.URL("/behave/signin-fetch.html")
	enter := q.submit(t, jobs.SubmitRequest{CorrelationID: "fetch-enter", URL: page,
		Task: jobs.Task{Type: jobs.TaskLogin, Username: "ada@example.com", Password: fixtures.LoginPassword}})
	click := q.submit(t, jobs.SubmitRequest{CorrelationID: "fetch-click", URL: page,
		Task: jobs.Task{Type: jobs.TaskLogin, Username: "ada@example.com", Password: fixtures.LoginPassword,
			Selectors: []string{"#user", "#password", "#go"}}})
	wrong := q.submit(t, jobs.SubmitRequest{CorrelationID: "fetch-wrong", URL: page,
		Task: jobs.Task{Type: jobs.TaskLogin, Username: "ada@example.com", Password: "not-the-password"}})
	for _, j := range []*jobs.Job{enter, click} {
		d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		if d.State != jobs.Succeeded || !strings.HasSuffix(d.FinalURL, "/behave/signed-in.html") || !strings.Contains(d.Summary, "went to this page") {
			t.Errorf("%s: %s %q %q %s", j.CorrelationID, d.State, d.Error, d.Summary, d.FinalURL)
		}
	}
	d, _ := q.wait(t, wrong.ID, jobs.Succeeded, jobs.Failed)
	if d.State != jobs.Failed || !strings.Contains(d.Error, `did not accept the sign-in: it says "Wrong email or password."`) {
		t.Errorf("a wrong password: %s %q", d.State, d.Error)
	}
}

// A person who was handed the sign-in and resumed the job still signed out is
// asked again; resumed so once more, the job fails with what the page shows,
// never as cdpmcp's own (INTERNAL) failure.
func TestLoginResumedStillSignedOut(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/login"), HandoffAllowed: true, Task: jobs.Task{Type: jobs.TaskLogin}})
	w, seen := q.wait(t, j.ID, jobs.WaitingForHuman, jobs.Failed, jobs.Succeeded)
	if w.State != jobs.WaitingForHuman {
		t.Fatalf("%s %q (seen %v)", w.State, w.Error, seen)
	}
	if _, err := q.Resume(testCtx(t), j.ID, "done, I think"); err != nil {
		t.Fatalf("resume: %v", err)
	}
	testbound.Until(t, "the job to wait for a person again", func() bool {
		w, err := q.Status(testCtx(t), j.ID)
		return err == nil && (w.State == jobs.WaitingForHuman && strings.Contains(w.Summary, "still not signed in after a person's help") || w.State.Terminal())
	})
	if _, err := q.Resume(testCtx(t), j.ID, "done now"); err != nil {
		t.Fatalf("resume again: %v", err)
	}
	d, _ := q.wait(t, j.ID, jobs.Failed, jobs.Succeeded)
	if d.State != jobs.Failed || strings.Contains(d.Error, "INTERNAL") ||
		!strings.Contains(d.Error, "still not signed in after a person's help: the page at "+site.URL("/jobs/login")+" asks for a password") {
		t.Errorf("resumed twice, still signed out: %s %q", d.State, d.Error)
	}
}
