// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/mark3labs/mcp-go/client"
)

// handoffServer is an MCP server with a job queue whose waiting jobs go to a
// live view; jobs, tools and logs share one secrets registry, as in cmd.
func handoffServer(t *testing.T, opener *urlOpener) (*client.Client, *jobs.Queue, *jobs.DataDir) {
	t.Helper()
	dir, err := jobs.OpenDataDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, err := sqlite.Open(context.Background(), dir.DBPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	reg := secrets.New()
	lv := newLiveView(t)
	var q *jobs.Queue
	jh := NewJobHandoff(lv, func(context.Context) (*jobs.Queue, error) { return q, nil })
	q, err = jobs.Open(context.Background(), jobs.Config{Dir: dir, Store: store, MaxTabs: 2, Handoff: jh,
		Browser: cdpclient.Options{Secrets: reg}})
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Timeout: callTimeout, Secrets: reg, LiveView: lv, JobHandoff: jh,
		Jobs: func(context.Context) (*jobs.Queue, error) { return q, nil }}, mgr)
	t.Cleanup(func() {
		s.Close()
		_ = q.Close()
		_ = store.Close()
		_ = dir.Close()
	})
	return urlClient(t, s, opener), q, dir
}

// jobCall calls a job tool and returns its text, failing on an error result.
func jobCall(t *testing.T, c *client.Client, name string, args map[string]any, answers *[]string) map[string]any {
	t.Helper()
	r := callTool(t, c, name, args)
	*answers = append(*answers, r.text)
	if r.isError {
		t.Fatalf("%s: %s", name, r.text)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.text), &m); err != nil {
		t.Fatalf("%s: %q", name, r.text)
	}
	return m
}

// The whole handoff through a real MCP client: a login job meets a CAPTCHA in
// a cross-site frame and a password nobody gave it; its client is asked to
// open the live view (URL elicitation); a person in another browser sees the
// tab, solves the CAPTCHA with a trusted click, types the password, signs in
// and presses Done. The job succeeds, a later job in the same profile is
// signed in, the link is refused from then on, and the password is in no
// answer, no file of the data dir and no log line.
func TestJobHandoffThroughMCP(t *testing.T) {
	var logs syncBuffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(old)
	defer func() {
		if t.Failed() {
			t.Logf("logs:\n%s", logs.String())
		}
	}()

	opener := &urlOpener{got: make(chan string, 4)}
	c, q, dir := handoffServer(t, opener)
	var answers []string
	sub := jobCall(t, c, "browser.job.submit", map[string]any{"correlationId": "handoff-1", "url": site.URL("/handoff/signin"),
		"profile": "handoff", "handoffAllowed": true, "task": map[string]any{"type": "login"}}, &answers)
	id := sub["jobId"].(string)
	status := func() map[string]any {
		return jobCall(t, c, "browser.job.status", map[string]any{"correlationId": "handoff-1", "jobId": id}, &answers)
	}
	var st map[string]any
	waitUntil(t, "the job to wait for a person", func() bool {
		st = status()
		return st["status"] != "RUNNING" && st["status"] != "QUEUED" && st["status"] != "DISPATCHED"
	})
	url, _ := st["handoffUrl"].(string)
	if st["status"] != "WAITING_FOR_HUMAN" || url == "" || !strings.Contains(st["summary"].(string), "CAPTCHA") {
		t.Fatalf("status %v", st)
	}
	select {
	case asked := <-opener.got:
		if asked != url {
			t.Errorf("the client was asked to open %q, the status says %q", asked, url)
		}
	case <-time.After(testbound.Bound()):
		t.Fatal("the client was not asked to open the live view")
	}
	opener.mu.Lock()
	ask := opener.asks[0]
	opener.mu.Unlock()
	if ask.Mode != "url" || ask.ElicitationID == "" || !strings.Contains(ask.Message, "needs a person") {
		t.Errorf("elicitation %+v", ask)
	}

	tab, err := q.WaitingTab(id)
	if err != nil {
		t.Fatal(err)
	}
	view := personTab(t, url)
	waitUntil(t, "the first frame", func() bool { return viewFrames(t, view) > 0 })
	// The view sizes the tab to itself; frames follow.
	waitUntil(t, "the tab to take the view's size", func() bool {
		var w float64
		evalJSON(t, tab, `innerWidth`, &w)
		var vw float64
		evalJSON(t, view, `document.getElementById('screen').getBoundingClientRect().width`, &vw)
		return w > 0 && w == vw
	})
	before := viewFrames(t, view)
	captcha := boxOf(t, tab, "#captcha")
	clickThrough(t, view, tab, captcha.X+30, captcha.Y+38)
	defer func() {
		if t.Failed() {
			var v any
			evalJSON(t, view, `[window.liveView, document.getElementById('status').textContent, document.getElementById('screen').getBoundingClientRect()]`, &v)
			var tv any
			evalJSON(t, tab, `[innerWidth, innerHeight, document.getElementById('captcha').getBoundingClientRect()]`, &tv)
			t.Logf("the view: %v; the tab: %v", v, tv)
		}
	}()
	waitUntil(t, "the CAPTCHA to be solved", func() bool {
		return tabText(t, tab, `document.getElementById('captcha-state').textContent`) == "CAPTCHA solved"
	})
	waitUntil(t, "the view to show the change", func() bool { return viewFrames(t, view) > before })
	pw := boxOf(t, tab, "#password")
	clickThrough(t, view, tab, pw.X+10, pw.Y+pw.H/2)
	waitUntil(t, "the password field to have the focus", func() bool {
		return tabText(t, tab, `document.activeElement.id`) == "password"
	})
	ctx := testCtx(t)
	for _, r := range fixtures.LoginPassword {
		k := string(r)
		for _, up := range []bool{false, true} {
			ev := live.KeyEvent{Up: up, Key: k}
			if !up {
				ev.Text = k
			}
			if err := live.DispatchKey(ctx, view, ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := live.DispatchKey(ctx, view, live.KeyEvent{Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"}); err != nil {
		t.Fatal(err)
	}
	if err := live.DispatchKey(ctx, view, live.KeyEvent{Up: true, Key: "Enter", Code: "Enter", KeyCode: 13}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the site to accept the sign-in", func() bool {
		return tabText(t, tab, `document.getElementById('state')?.textContent || ''`) == "Signed in"
	})
	if n := site.UntrustedCaptchaClicks(); n != 0 {
		t.Errorf("%d untrusted clicks reached the CAPTCHA", n)
	}
	if err := cdpclient.Outcome(view.Click(ctx, cdpclient.Target{Selector: "#done"}, cdpclient.ClickOptions{})); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the job to end", func() bool { st = status(); s := jobs.State(st["status"].(string)); return s.Terminal() })
	if st["status"] != "SUCCEEDED" || st["handoffUrl"] != nil || !strings.Contains(st["summary"].(string), "with a person's help") {
		t.Fatalf("after Done: %v", st)
	}
	var overlay string
	waitUntil(t, "the view to close", func() bool {
		evalJSON(t, view, `document.getElementById('overlay').hidden ? '' : document.getElementById('overlay-text').textContent`, &overlay)
		return overlay != ""
	})
	if !strings.Contains(overlay, "handed the tab back") {
		t.Errorf("the view says %q", overlay)
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("the link still opens after the job went on: %d", res.StatusCode)
	}

	// The person's sign-in stays in the profile.
	next := jobCall(t, c, "browser.job.submit", map[string]any{"correlationId": "handoff-2", "url": site.URL("/jobs/account"),
		"profile": "handoff", "task": map[string]any{"type": "extract", "selectors": []string{"#state"}}}, &answers)
	var done map[string]any
	waitUntil(t, "the next job", func() bool {
		done = jobCall(t, c, "browser.job.status", map[string]any{"correlationId": "handoff-2", "jobId": next["jobId"]}, &answers)
		return jobs.State(done["status"].(string)).Terminal()
	})
	if b, _ := json.Marshal(done["result"]); done["status"] != "SUCCEEDED" || !strings.Contains(string(b), `"Signed in"`) {
		t.Errorf("a later job in the profile: %v", done)
	}

	for i, a := range answers {
		if strings.Contains(a, fixtures.LoginPassword) {
			t.Errorf("answer %d holds the password: %s", i, a)
		}
	}
	_ = q.Close() // the artifacts are written, the profile's browser is gone
	if files := filesHolding(t, dir.Path, fixtures.LoginPassword); len(files) > 0 {
		t.Errorf("files holding the password: %v", files)
	}
	if strings.Contains(logs.String(), fixtures.LoginPassword) {
		t.Errorf("the logs hold the password")
	}
	if !strings.Contains(logs.String(), "a person opened the live view") {
		t.Errorf("the logs do not say a person came:\n%s", logs.String())
	}
}
