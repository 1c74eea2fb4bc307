package tools

import (
	"fmt"
	"os"
	"syscall"

	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A click into a handler that never returns: the click happened (ok) and says
// the page is busy, even under a call deadline as short as the busy probe's;
// the next call on that tab answers that the page is stuck; reload stops the
// script.
func TestInfiniteLoopRecovered(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: 2 * time.Second}, mgr)
	defer s.Close()
	c := newClient(t, s)
	// The stuck click's deadline is the short one; the navigations (the first
	// one makes the session's browser context) take a scaled one of their own.
	long := testbound.Scale(30 * time.Second).Milliseconds()
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/busy.html"), "timeoutMs": long}))
	r := callTool(t, c, "click", map[string]any{"selector": "#spin"})
	if r.isError || !strings.Contains(r.text, "the page is busy") || !strings.Contains(r.text, "reload") {
		t.Errorf("stuck click: %s", r.text)
	}
	r = callTool(t, c, "click", map[string]any{"selector": "#alive"})
	if !r.isError || !strings.Contains(r.text, "busy") {
		t.Errorf("click on the stuck page: %s", r.text)
	}
	// The browser knows the title without the page.
	if r := callTool(t, c, "getTitle", nil); r.text != "Busy page" {
		t.Errorf("title of the stuck page: %q, want \"Busy page\"", r.text)
	}
	mustOK(t, callTool(t, c, "reload", map[string]any{"timeoutMs": long}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#alive"}))
	if r := callTool(t, c, "getTitle", nil); r.text != "alive" {
		t.Errorf("title after recovery = %q", r.text)
	}
}

// A click on a link whose server is slow to answer: the tab waits for it, and
// Chromium lets no call reach the page meanwhile. The click happened and says
// so; the next snapshot, evaluate and click say the tab waits for that URL,
// not that a script keeps the page busy; reload stops the wait, and the tab
// is on its page again.
func TestSlowServerIsNotBusy(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: 4 * time.Second}, mgr)
	defer s.Close()
	c := newClient(t, s)
	long := testbound.Scale(30 * time.Second).Milliseconds()
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html"), "timeoutMs": long}))
	mustOK(t, callTool(t, c, "evaluate", map[string]any{"expression": `document.body.insertAdjacentHTML("beforeend", '<a id="slowlink" href="/slow?ms=20000">slow</a>')`}))
	slow := site.URL("/slow?ms=20000")
	r := callTool(t, c, "click", map[string]any{"selector": "#slowlink"})
	mustOK(t, r)
	wantIn(t, r, "waiting for "+slow)
	for _, call := range []struct {
		name string
		args map[string]any
	}{{"snapshot", nil}, {"evaluate", map[string]any{"expression": "1"}}, {"click", map[string]any{"selector": "#slowlink"}}} {
		r := callTool(t, c, call.name, call.args)
		if !r.isError || !strings.Contains(r.text, "waiting for "+slow) || strings.Contains(r.text, "busy") {
			t.Errorf("%s while the tab waits for the server: %s", call.name, r.text)
		}
	}
	mustOK(t, callTool(t, c, "reload", map[string]any{"timeoutMs": long}))
	wantIn(t, callTool(t, c, "snapshot", nil), "Hello from fixtures")
}

// An endless evaluate is the expression's own doing: it is stopped before the
// call's deadline, and the next evaluate on that page answers. The deadline is
// scaled: the page that was just stopped must answer within what is left of
// it, which a loaded machine under the race detector can take seconds over.
func TestEndlessEvaluateStopped(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: testbound.Scale(4 * time.Second)}, mgr)
	defer s.Close()
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/busy.html")}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#alive"}))
	r := callTool(t, c, "evaluate", map[string]any{"expression": "while (true) {}"})
	if !r.isError || !strings.Contains(r.text, "was stopped") {
		t.Errorf("evaluate of an endless loop: %s", r.text)
	}
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "document.title"}); r.text != `"alive"` {
		t.Errorf("evaluate after the endless loop = %q", r.text)
	}
}

// The browser this server launched is killed: the next call starts a new one and
// says so; nothing of the dead one (processes, temporary profile) is left.
func TestBrowserKilledIsRelaunched(t *testing.T) {
	t.Parallel()
	marker := "--cdpmcp-test=killed-" + fmt.Sprint(os.Getpid())
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{marker}}})
	defer m.Close()
	s := New(Config{Timeout: callTimeout}, m)
	defer s.Close()
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	dead, ok := fixtures.FindBrowser(marker)
	if !ok {
		t.Fatal("browser process not found")
	}
	if err := syscall.Kill(-dead.PGID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "the manager to see its browser dead", func() bool { return !m.Current().Alive() })
	r := callTool(t, c, "navigate", map[string]any{"url": site.URL("/second.html")})
	mustOK(t, r)
	if !strings.Contains(r.text, "note: the browser cdpmcp launched had exited (signal: killed); cdpmcp started a new one") {
		t.Errorf("the restart was not reported: %s", r.text)
	}
	if r := callTool(t, c, "getTitle", nil); r.text != "Second page" {
		t.Errorf("after relaunch: %q", r.text)
	}
	if procgroup.Alive(dead.PGID) {
		t.Error("processes of the killed browser are still running")
	}
	if _, err := os.Stat(dead.UserDataDir); err == nil {
		t.Errorf("the killed browser's profile %s was not removed", dead.UserDataDir)
	}
}

// A browser killed while calls are in flight, or as they arrive: every call
// answers (never a protocol error), either done or BROWSER_GONE saying that the
// next call starts a new browser; never a page's error or rpcc's words. The
// next call after that works, in a new browser.
func TestBrowserKilledDuringCall(t *testing.T) {
	t.Parallel()
	marker := "--cdpmcp-test=killed-mid-call-" + fmt.Sprint(os.Getpid())
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{marker}}})
	defer m.Close()
	s := New(Config{Timeout: 2 * testbound.Bound()}, m)
	defer s.Close()
	c := newClient(t, s)
	kill := func() (pid int) {
		t.Helper()
		bp, ok := fixtures.FindBrowser(marker)
		if !ok {
			t.Fatal("browser process not found")
		}
		if err := syscall.Kill(-bp.PGID, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		return bp.PID
	}
	wantGoneOrDone := func(what string, r result) {
		t.Helper()
		if strings.Contains(r.text, "rpcc") || strings.Contains(r.text, "JS_ERROR") || strings.Contains(r.text, "INTERNAL") {
			t.Errorf("%s: %s", what, r.text)
		}
		if r.isError && (!strings.Contains(r.text, "BROWSER_GONE") && !strings.Contains(r.text, `"code":11`) || !strings.Contains(r.text, "starts a new browser")) {
			t.Errorf("%s: an error that does not say the browser is gone: %s", what, r.text)
		}
	}
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	// Calls waiting on the page when it dies.
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"evaluate", map[string]any{"expression": "new Promise(() => {})"}},
		{"waitFor", map[string]any{"text": "never there", "timeoutMs": 15000}},
		{"navigate", map[string]any{"url": site.URL("/slow?ms=30000"), "page": "p1"}},
	}
	results := make(chan result, len(calls))
	for _, call := range calls {
		go func() { results <- callTool(t, c, call.tool, call.args) }()
	}
	time.Sleep(300 * time.Millisecond) // the calls reach the page
	kill()
	for range calls {
		r := <-results
		wantGoneOrDone("a call in flight", r)
		if !r.isError {
			t.Errorf("a call in flight on a killed browser succeeded: %s", r.text)
		}
	}
	// Killed as calls arrive.
	for i := range 4 {
		mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
		killed := m.Current()
		pid := kill()
		for _, tool := range []string{"snapshot", "getUrl", "screenshot"} {
			wantGoneOrDone(fmt.Sprintf("round %d, %s as the browser dies", i, tool), callTool(t, c, tool, nil))
		}
		// The next round's navigate must work once cdpmcp knows the browser
		// died: its process reaped and its exit seen. Before that (a few
		// milliseconds after the kill, more on a loaded machine) a call may
		// still go to the dying browser and answer BROWSER_GONE, "call
		// again", which is true too.
		testbound.Until(t, "the killed browser to be reaped", func() bool {
			_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
			return err != nil
		})
		testbound.Until(t, "cdpmcp to see the killed browser gone", func() bool { return !killed.Alive() })
	}
	var r result
	testbound.Until(t, "a navigation to work in a new browser", func() bool {
		r = callTool(t, c, "navigate", map[string]any{"url": site.URL("/second.html")})
		return !r.isError || !strings.Contains(r.text, "BROWSER_GONE")
	})
	mustOK(t, r)
	if r := callTool(t, c, "getTitle", nil); r.text != "Second page" {
		t.Errorf("after the browser came back: %q", r.text)
	}
}

// A crashed tab is reported clearly ("the tab crashed", with a hint); the
// other tabs and other sessions go on; the tab can be reloaded, and closed.
func TestCrashedTab(t *testing.T) {
	t.Parallel()
	c, other := newClient(t), newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	mustOK(t, callTool(t, other, "navigate", map[string]any{"url": site.URL("/home.html")}))
	crash := func(page string) {
		t.Helper()
		mustOK(t, callTool(t, c, "newPage", map[string]any{"url": site.URL("/second.html")}))
		_ = callTool(t, c, "cdp", map[string]any{"domain": "Page", "method": "crash", "page": page})
	}
	crash("p2")
	var r result
	testbound.Until(t, "a snapshot of p2 to say it crashed", func() bool {
		r = callTool(t, c, "snapshot", map[string]any{"page": "p2"})
		return strings.Contains(r.text, "crashed")
	})
	if !r.isError || !strings.Contains(r.text, "the tab crashed") || !strings.Contains(r.text, "reload") || !strings.Contains(r.text, "closePage") {
		t.Fatalf("a crashed tab: %s", r.text)
	}
	// The other tab of the session, and another session, are untouched.
	if r := callTool(t, c, "getTitle", map[string]any{"page": "p1"}); r.isError || r.text != "Fixtures home" {
		t.Errorf("the session's other tab after the crash: %v %q", r.isError, r.text)
	}
	mustOK(t, callTool(t, other, "click", map[string]any{"selector": "a"}))
	// Reloading brings the tab back, refs and all.
	mustOK(t, callTool(t, c, "reload", map[string]any{"page": "p2"}))
	if r := callTool(t, c, "getTitle", map[string]any{"page": "p2"}); r.text != "Second page" {
		t.Errorf("title of the reloaded tab = %q", r.text)
	}
	mustOK(t, callTool(t, c, "snapshot", map[string]any{"page": "p2"}))
	mustOK(t, callTool(t, c, "evaluate", map[string]any{"expression": "1+1", "page": "p2"}))
	// A crashed tab can be closed.
	crash("p3")
	testbound.Until(t, "p3 to say it crashed", func() bool {
		r = callTool(t, c, "getUrl", map[string]any{"page": "p3"})
		return strings.Contains(r.text, "crashed")
	})
	mustOK(t, callTool(t, c, "closePage", map[string]any{"page": "p3"}))
	if r := callTool(t, c, "listPages", nil); strings.Contains(r.text, "p3") || !strings.Contains(r.text, "p1") || !strings.Contains(r.text, "p2") {
		t.Errorf("pages after closing the crashed one: %q", r.text)
	}
}
