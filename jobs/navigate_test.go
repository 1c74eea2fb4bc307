package jobs_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// A navigate job follows redirects, succeeds on load, and leaves a PNG, a
// trace and a HAR log with timings; its states only move forward.
func TestNavigateJob(t *testing.T) {
	t.Parallel()
	onBothStores(t, testNavigateJob)
}

func testNavigateJob(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/redirect?to=/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	done, seen := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded {
		t.Fatalf("state %s: %s", done.State, done.Error)
	}
	order := []jobs.State{jobs.Queued, jobs.Dispatched, jobs.Running, jobs.Succeeded}
	last := -1
	for _, s := range seen {
		i := slices.Index(order, s)
		if i < last {
			t.Errorf("states went backwards: %v", seen)
		}
		last = i
	}
	if !strings.HasSuffix(done.FinalURL, "/jobs/article.html") {
		t.Errorf("finalUrl %q, want the redirect's target", done.FinalURL)
	}
	if done.Progress != 1 || !strings.Contains(done.Summary, "The quiet river") {
		t.Errorf("progress %v summary %q", done.Progress, done.Summary)
	}
	png, err := os.ReadFile(done.Artifacts.Screenshot)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot %q: %v (%d bytes)", done.Artifacts.Screenshot, err, len(png))
	}
	trace, err := os.ReadFile(done.Artifacts.Trace)
	if err != nil || !bytes.Contains(trace, []byte(`"act":"navigate"`)) || !bytes.Contains(trace, []byte(`"method":"Network.responseReceived"`)) {
		t.Errorf("trace lacks the navigation or network events: %v\n%s", err, trace)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(trace), []byte("\n")) {
		if !json.Valid(line) {
			t.Errorf("trace line is not JSON: %s", line)
		}
	}
	var har network.HAR
	b, err := os.ReadFile(done.Artifacts.NetworkLog)
	if err != nil || json.Unmarshal(b, &har) != nil {
		t.Fatalf("HAR %q: %v", done.Artifacts.NetworkLog, err)
	}
	if har.Log.Version != "1.2" || len(har.Log.Pages) == 0 || har.Log.Pages[0].PageTimings.OnLoad <= 0 {
		t.Errorf("HAR log header: %+v", har.Log.Pages)
	}
	var statuses []int
	for _, e := range har.Log.Entries {
		statuses = append(statuses, e.Response.Status)
		if e.Time < 0 || e.Timings.Wait < 0 || e.Timings.Send < 0 || e.Started == "" {
			t.Errorf("entry %s has bad timings: %+v", e.Request.URL, e.Timings)
		}
	}
	if len(statuses) < 2 || statuses[0] != 302 || statuses[1] != 200 {
		t.Errorf("HAR statuses %v, want 302 then 200", statuses)
	}
	if e := har.Log.Entries[0]; e.Response.RedirectURL == "" || !strings.Contains(e.Request.URL, "/redirect") {
		t.Errorf("first entry %+v is not the redirect", e.Request)
	}
}
