package jobs_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// A message job types task.text and clicks send, once: submitting it again
// gives the same job and sends nothing more.
func TestMessageSentOnce(t *testing.T) {
	onBothStores(t, testMessageSentOnce)
}

func testMessageSentOnce(t *testing.T) {
	// Not parallel: it counts the fixture server's sends, which another
	// test's message job would add to.
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	before := site.Sends()
	req := jobs.SubmitRequest{CorrelationID: "msg-1", URL: site.URL("/jobs/compose.html"),
		Task: jobs.Task{Type: jobs.TaskMessage, Selectors: []string{"#message", "#send"}, Text: "Hello from the horde"}}
	j := q.submit(t, req)
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || !done.Effects {
		t.Fatalf("message job: %s %q effects %v", done.State, done.Error, done.Effects)
	}
	again := q.submit(t, req)
	time.Sleep(500 * time.Millisecond)
	if again.ID != j.ID || site.Sends()-before != 1 || site.LastMessage() != "Hello from the horde" {
		t.Errorf("sends %d (want 1), last %q, resubmit gave %s", site.Sends()-before, site.LastMessage(), again.ID)
	}
	if !strings.HasSuffix(done.FinalURL, "/jobs/send") {
		t.Errorf("finalUrl %q", done.FinalURL)
	}
}

// A login job signs in with the password it was given, which appears in no
// artifact, answer or store; without one it fails with the reason, or with
// handoffAllowed waits for a person, who signs in in the job's own tab.
func TestLogin(t *testing.T) {
	t.Parallel()
	onBothStores(t, testLogin)
}

func testLogin(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	ok := q.submit(t, jobs.SubmitRequest{CorrelationID: "login-ok", URL: site.URL("/jobs/login"), Profile: "login-ok",
		Task: jobs.Task{Type: jobs.TaskLogin, Username: "ada@example.com", Password: fixtures.LoginPassword}})
	noPw := q.submit(t, jobs.SubmitRequest{CorrelationID: "login-nopw", URL: site.URL("/jobs/login"), Task: jobs.Task{Type: jobs.TaskLogin}})
	captcha := q.submit(t, jobs.SubmitRequest{CorrelationID: "login-captcha", URL: site.URL("/jobs/captcha.html"), Task: jobs.Task{Type: jobs.TaskLogin, Password: "x-nope-x"}})

	d, _ := q.wait(t, ok.ID, jobs.Succeeded, jobs.Failed)
	if d.State != jobs.Succeeded || !strings.HasSuffix(d.FinalURL, "/jobs/account") {
		t.Errorf("login with a password: %s %q %s", d.State, d.Error, d.FinalURL)
	}
	for _, path := range []string{d.Artifacts.Trace, d.Artifacts.NetworkLog} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(fixtures.LoginPassword)) {
			t.Errorf("%s contains the password", filepath.Base(path))
		}
	}
	if bytes.Contains(storedBytes(t, q), []byte(fixtures.LoginPassword)) {
		t.Errorf("the job store contains the password")
	}
	if b, _ := os.ReadFile(d.Artifacts.NetworkLog); bytes.Contains(b, []byte("session=")) {
		t.Errorf("the HAR log carries the session cookie")
	}
	d, _ = q.wait(t, noPw.ID, jobs.Succeeded, jobs.Failed)
	if d.State != jobs.Failed || !strings.Contains(d.Error, "asks for a password") || !strings.Contains(d.Error, "handoffAllowed") {
		t.Errorf("login without a password: %s %q", d.State, d.Error)
	}
	d, _ = q.wait(t, captcha.ID, jobs.Succeeded, jobs.Failed)
	if d.State != jobs.Failed || !strings.Contains(d.Error, "CAPTCHA") {
		t.Errorf("login on a CAPTCHA page: %s %q", d.State, d.Error)
	}

	// With handoffAllowed the job waits, its tab open; a person signs in there.
	wait := q.submit(t, jobs.SubmitRequest{CorrelationID: "login-handoff", URL: site.URL("/jobs/login"), HandoffAllowed: true, Task: jobs.Task{Type: jobs.TaskLogin}})
	w, seen := q.wait(t, wait.ID, jobs.WaitingForHuman, jobs.Failed)
	if w.State != jobs.WaitingForHuman || !strings.Contains(w.Summary, "asks for a password") {
		t.Fatalf("handoff login: %s %q (seen %v)", w.State, w.Summary, seen)
	}
	tab, err := q.WaitingTab(wait.ID)
	if err != nil || tab.Usable() != nil {
		t.Fatalf("waiting job's tab: %v", err)
	}
	ctx := testCtx(t)
	if err := cdpclient.Outcome(input.Type(ctx, tab, cdpclient.Target{Selector: "#password"}, fixtures.LoginPassword, true, true)); err != nil {
		t.Fatalf("the person types: %v", err)
	}
	testbound.Until(t, "the tab to reach /jobs/account", func() bool { return strings.HasSuffix(tab.URL(), "/jobs/account") })
	r, err := q.Resume(testCtx(t), wait.ID, "signed in")
	if err != nil || r.State != jobs.Resumed {
		t.Fatalf("resume: %v %v", r, err)
	}
	d, seen = q.wait(t, wait.ID, jobs.Succeeded, jobs.Failed)
	if d.State != jobs.Succeeded || !strings.Contains(d.Summary, "a person's help") || d.Note != "signed in" {
		t.Errorf("after the handoff: %s %q %q (seen %v)", d.State, d.Error, d.Summary, seen)
	}
	var se *jobstore.StateError
	if _, err := q.Resume(testCtx(t), wait.ID, ""); !errors.As(err, &se) {
		t.Errorf("resuming twice: %v", err)
	}
}

// Jobs in one profile share its sign-in, also across a restart; other profiles
// and jobs without one do not.
func TestProfiles(t *testing.T) {
	t.Parallel()
	onBothStores(t, testProfiles)
}

func testProfiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	q := openQueue(t, dir, jobs.Config{MaxTabs: 3})
	signIn := q.submit(t, jobs.SubmitRequest{CorrelationID: "magic", URL: site.MagicLink(), Profile: "alice", Task: jobs.Task{Type: jobs.TaskNavigate}})
	if d, _ := q.wait(t, signIn.ID, jobs.Succeeded, jobs.Failed); d.State != jobs.Succeeded || !strings.HasSuffix(d.FinalURL, "/jobs/account") {
		t.Fatalf("magic link: %s %s %s", d.State, d.Error, d.FinalURL)
	}
	// A job without a profile signs in; the next one without a profile (in a
	// context a job used before, scrubbed) is not signed in.
	anon := q.submit(t, jobs.SubmitRequest{CorrelationID: "magic-anon", URL: site.MagicLink(), Task: jobs.Task{Type: jobs.TaskNavigate}})
	q.wait(t, anon.ID, jobs.Succeeded)
	state := func(q *testQueue, profile string) string {
		j := q.submit(t, jobs.SubmitRequest{CorrelationID: "who-" + profile + time.Now().String(), URL: site.URL("/jobs/account"), Profile: profile,
			Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"#state"}}})
		d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		return string(d.Result)
	}
	for profile, want := range map[string]string{"alice": "Signed in", "bob": "Not signed in", "": "Not signed in"} {
		if got := state(q, profile); !strings.Contains(got, `"`+want+`"`) {
			t.Errorf("profile %q: %s, want %q", profile, got, want)
		}
	}
	q.close()
	q2 := openQueue(t, dir, jobs.Config{MaxTabs: 1})
	if got := state(q2, "alice"); !strings.Contains(got, `"Signed in"`) {
		t.Errorf("profile alice after a restart: %s", got)
	}
}

// Jobs without a profile see nothing an earlier one stored, though they may
// run in its scrubbed tab; jobs in one profile see what the profile stored.
func TestNoStorageLeaksBetweenJobs(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	seen := func(profile string, i int) string {
		j := q.submit(t, jobs.SubmitRequest{CorrelationID: "storage" + profile + string(rune('0'+i)), URL: site.URL("/jobs/storage.html"), Profile: profile,
			Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"#seen"}}})
		d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		return string(d.Result)
	}
	for i := range 3 {
		if got := seen("", i); !strings.Contains(got, `"-|-|-"`) {
			t.Errorf("job %d without a profile saw %s", i, got)
		}
	}
	kept := 0 // late jobs whose tab served the next one
	late := func(i int) string {
		j := q.submit(t, jobs.SubmitRequest{CorrelationID: "late" + string(rune('0'+i)), URL: site.URL("/jobs/storage-late.html"),
			Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"#seen"}}})
		d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		// A job's tab is kept (or not) before its end is recorded.
		if i < 2 && q.SpareTabs() == 1 {
			kept++
		}
		return string(d.Result)
	}
	// A page that keeps storing, on a timer and as it is left, stores
	// nothing the next job sees: its tab is left before it is cleared.
	for i := range 3 {
		if got := late(i); !strings.Contains(got, `"-|-"`) {
			t.Errorf("job %d after a page that stores late saw %s", i, got)
		}
	}
	// At least one late page's tab was cleared and served the next job (a
	// fresh tab would pass this test without any clearing); a scrub that
	// ran out of its time on a loaded machine gives its job a new tab.
	if kept == 0 {
		t.Errorf("neither of the first two late pages' tabs was kept for the next job")
	}
	seen("keeper", 0)
	if got := seen("keeper", 1); !strings.Contains(got, `"L|-|x=C"`) {
		t.Errorf("the second job in a profile saw %s, want its local storage and cookie", got)
	}
}
