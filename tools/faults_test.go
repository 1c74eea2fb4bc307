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
// script. An endless evaluate is stopped too.
func TestInfiniteLoopRecovered(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: 2 * time.Second}, mgr)
	defer s.Close()
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/busy.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#spin"})
	if r.isError || !strings.Contains(r.text, "the page is busy") || !strings.Contains(r.text, "reload") {
		t.Errorf("stuck click: %s", r.text)
	}
	r = callTool(t, c, "click", map[string]any{"selector": "#alive"})
	if !r.isError || !strings.Contains(r.text, "busy") {
		t.Errorf("click on the stuck page: %s", r.text)
	}
	if r := callTool(t, c, "getTitle", nil); r.text == "" {
		t.Errorf("title of the stuck page: %q", r.text)
	}
	mustOK(t, callTool(t, c, "reload", nil))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#alive"}))
	if r := callTool(t, c, "getTitle", nil); r.text != "alive" {
		t.Errorf("title after recovery = %q", r.text)
	}
	// An endless evaluate is the expression's own doing: it is stopped.
	r = callTool(t, c, "evaluate", map[string]any{"expression": "while (true) {}"})
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
	if !strings.Contains(r.text, "started (or reconnected) again") {
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

// A crashed tab is reported clearly and can be closed.
func TestCrashedTab(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	mustOK(t, callTool(t, c, "newPage", map[string]any{"url": site.URL("/second.html")}))
	_ = callTool(t, c, "cdp", map[string]any{"domain": "Page", "method": "crash", "page": "p2"})
	var r result
	testbound.Until(t, "a snapshot of p2 to say it crashed", func() bool {
		r = callTool(t, c, "snapshot", map[string]any{"page": "p2"})
		return strings.Contains(r.text, "crashed")
	})
	if !r.isError || !strings.Contains(r.text, "crashed") || !strings.Contains(r.text, "closePage") {
		t.Fatalf("a crashed tab: %s", r.text)
	}
	mustOK(t, callTool(t, c, "closePage", map[string]any{"page": "p2"}))
	if r := callTool(t, c, "listPages", nil); strings.Contains(r.text, "p2") || !strings.Contains(r.text, "p1") {
		t.Errorf("pages after closing the crashed one: %q", r.text)
	}
	mustOK(t, callTool(t, c, "snapshot", nil))
}
