package jobs_test

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/learned/replay"
)

// internalHint is the hint of a failure of cdpmcp's own (INTERNAL), which
// tells the caller to call again and report a bug: never the hint of a
// page's or a submitter's mistake.
const internalHint = "this is not the page's doing"

// A message job's selector that matches nothing is NOT_FOUND, the action's
// own code, with a hint to fix the selector; a send button that is not
// there says the message was not sent.
func TestMessageBadSelectorIsNotFound(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	for _, c := range []struct {
		selectors []string
		want      string
	}{
		{[]string{"#nothere", "#send"}, "NOT_FOUND: type #nothere failed: "},
		{[]string{"#message", "#nosend"}, "NOT_FOUND: the send button was not clicked: click #nosend failed: "},
	} {
		j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/compose.html"),
			Task: jobs.Task{Type: jobs.TaskMessage, Selectors: c.selectors, Text: "hello"}})
		done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		if done.State != jobs.Failed || !strings.HasPrefix(done.Error, c.want) || !strings.Contains(done.Error, "(check task.selectors") || strings.Contains(done.Error, internalHint) {
			t.Errorf("a message job with selectors %q: %s %q, want FAILED %q…", c.selectors, done.State, done.Error, c.want)
		}
	}
}

// A script job whose page no longer has the element a step looks for fails
// NOT_FOUND, and one whose step the origin rules refuse fails PERMISSION:
// neither is cdpmcp's own failure (INTERNAL), to retry and report.
func TestScriptFailureCodes(t *testing.T) {
	t.Parallel()
	policy, err := origins.NewList(nil, []string{"http://localhost:*"})
	if err != nil {
		t.Fatal(err)
	}
	q := newQueue(t, jobs.Config{MaxTabs: 2, Origins: policy})
	script := func(step string) []byte {
		return []byte(`{"format":"cdpmcp-script","version":1,"source":{"from":"record","created":"2026-01-01T00:00:00Z"},"steps":[
{"action":"navigate","url":"http://127.0.0.1:1/jobs/article.html"},` + step + `]}`)
	}
	for _, c := range []struct {
		name, step, want string
	}{
		{"no such element", `{"action":"click","target":{"role":"button","name":"Search"}}`, `NOT_FOUND: step 2 (click button "Search") failed: looked for button "Search"`},
		{"refused by the origin rules", `{"action":"navigate","url":"http://localhost:1/jobs/article.html"}`, "PERMISSION: step 2 (open http://localhost:1/jobs/article.html) failed"},
	} {
		j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskScript, Script: script(c.step)}})
		done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		if done.State != jobs.Failed || !strings.HasPrefix(done.Error, c.want) || strings.Contains(done.Error, internalHint) {
			t.Errorf("%s: %s %q, want FAILED %q…", c.name, done.State, done.Error, c.want)
		}
	}
}

// A replay's failed step gets the code its words name (the report carries
// none): what the page no longer shows, what ran out of time, what the
// rules refused, what the browser's validation refused, an element that is
// disabled or covered.
func TestReplayFailureCode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		found, want string
	}{
		{"no such element, and none of its kind", "NOT_FOUND"},
		{"no such element; of its kind the page shows <button>Log in</button>", "NOT_FOUND"},
		{"2 elements that match, and nothing tells them apart: <button>Edit</button>, <button>Edit</button>", "NOT_FOUND"},
		{"the address http://x/other, no text \"Order received\"", "NOT_FOUND"},
		{"nothing before the step's time ran out", "TIMEOUT"},
		{"blocked: http://localhost:1 is not an allowed origin (this server only opens the allowed origins; stay on them)", "PERMISSION"},
		{"read-only mode refused click: a script that acts on pages cannot be replayed there", "PERMISSION"},
		{"the text was typed, but the form was not submitted: input[:]Email: Enter an email address", "VALIDATION"},
		{"button \"Send\" is disabled", "DISABLED"},
		{"the click would land on <div class=overlay>, which covers the target", "OBSCURED"},
	} {
		err := jobs.ReplayFailure(&replay.Failure{Step: 2, Action: "click", Intent: "click it", Looked: "it", Found: c.found})
		if got := jobs.Describe(err); !strings.HasPrefix(got, c.want+": step 2 (click it) failed") || strings.Contains(got, internalHint) {
			t.Errorf("found %q: %q, want %s", c.found, got, c.want)
		}
	}
}
