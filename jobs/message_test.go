package jobs_test

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// A message job whose send the server answers with an HTTP error (the form's
// post, or the page's own call) FAILED: a consumer that reads only the
// status must not count the message as sent. It had effects all the same,
// and is not run again.
func TestMessageSendAnsweredError(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	for _, c := range []struct {
		page, want string
	}{
		{"/jobs/compose-lost.html", "NETWORK_ERROR: the send button was clicked, but the server answered HTTP 404 for " + site.URL("/status/404")},
		{"/jobs/compose-api.html", "NETWORK_ERROR: the send button was clicked, but the server answered HTTP 500 for POST /status/500"},
	} {
		j := q.submit(t, jobs.SubmitRequest{URL: site.URL(c.page),
			Task: jobs.Task{Type: jobs.TaskMessage, Selectors: []string{"#message", "#send"}, Text: "hello"}})
		done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		if done.State != jobs.Failed || !strings.HasPrefix(done.Error, c.want) || !done.Effects {
			t.Errorf("%s: %s %q (summary %q, effects %v), want FAILED %q…", c.page, done.State, done.Error, done.Summary, done.Effects, c.want)
		}
	}
}
