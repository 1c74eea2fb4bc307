package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/audit"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

var auditTools = []string{"auditAccessibility", "auditPerformance", "auditSecurity", "auditLinks", "auditReport"}

// auditServer is a server offering the audit group, read-only unless said.
func auditServer(t *testing.T, readOnly bool, m *cdpclient.Manager, policy *origins.List) *Server {
	t.Helper()
	s := New(Config{ReadOnly: readOnly, IsolateSessions: true, Timeout: callTimeout, Caps: []string{"audit"},
		Artifacts: t.TempDir(), Origins: policy}, m)
	t.Cleanup(s.Close)
	return s
}

func toolNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	res, err := c.ListTools(testCtx(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// The audit tools are a capability group: not in the default list, all of
// them (read-only mode too) when the group is asked for, and one alone when
// --tools names it.
func TestAuditToolsOffered(t *testing.T) {
	t.Parallel()
	core := New(Config{Caps: []string{}, Timeout: callTimeout}, mgr)
	defer core.Close()
	for _, name := range toolNames(t, newClient(t, core)) {
		if strings.HasPrefix(name, "audit") {
			t.Errorf("the default tool list offers %s", name)
		}
	}
	for _, ro := range []bool{false, true} {
		names := toolNames(t, newClient(t, auditServer(t, ro, mgr, nil)))
		for _, a := range auditTools {
			if !slices.Contains(names, a) {
				t.Errorf("read-only %v with the audit group: %s missing from %v", ro, a, names)
			}
		}
	}
	one := New(Config{Tools: []string{"navigate", "auditLinks"}, Timeout: callTimeout}, mgr)
	defer one.Close()
	if got := toolNames(t, newClient(t, one)); !slices.Equal(got, []string{"auditLinks", "navigate"}) {
		t.Errorf("--tools navigate,auditLinks offers %v", got)
	}
}

var artifactPath = regexp.MustCompile(`full data: (\S+\.json)`)

// artifactOf reads the full-data artifact an audit answer names.
func artifactOf(t *testing.T, r result, v any) string {
	t.Helper()
	m := artifactPath.FindStringSubmatch(r.text)
	if m == nil {
		t.Fatalf("no artifact in %q", r.text)
	}
	b, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("artifact %s: %v", m[1], err)
	}
	return m[1]
}

// Through a real MCP client in read-only mode: each audit answers compactly
// with its findings and the path of the full data, auditLinks reports
// progress per page, and auditReport writes an HTML report that a browser
// shows with its summary, findings, pictures and timeline.
func TestAuditsThroughMCP(t *testing.T) {
	t.Parallel()
	c := newClient(t, auditServer(t, true, mgr, nil))
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/audit/a11y-bad.html")}))
	r := callTool(t, c, "auditAccessibility", nil)
	mustOK(t, r)
	wantIn(t, r, "12 findings (5 critical, 6 serious, 1 moderate)", "critical button-name ref=", "#icon-btn", "contrast 2.32:1, needs 4.5:1")
	var a11y struct{ Findings []audit.Finding }
	artifactOf(t, r, &a11y)
	if len(a11y.Findings) != 12 {
		t.Errorf("artifact holds %d findings", len(a11y.Findings))
	}
	wantIn(t, callTool(t, c, "auditAccessibility", map[string]any{"scope": "#hidden-nav"}), "1 finding (1 serious)", "aria-hidden-focus")

	r = callTool(t, c, "auditPerformance", map[string]any{"url": site.URL("/audit/perf-bad.html")})
	mustOK(t, r)
	wantIn(t, r, "(trace, throttle none)", "LCP", "(image ref=", "#hero", "CLS", "render-blocking", "trace (open in Chrome DevTools")
	if m := regexp.MustCompile(`Performance > Load profile\): (\S+)`).FindStringSubmatch(r.text); m == nil {
		t.Errorf("no trace path in %q", r.text)
	} else if st, err := os.Stat(m[1]); err != nil || st.Size() < 10000 {
		t.Errorf("trace file %s: %v", m[1], err)
	}

	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/audit/security-bad.html")}))
	r = callTool(t, c, "auditSecurity", nil)
	mustOK(t, r)
	wantIn(t, r, "transport loopback", "8 findings", "header-csp", "cookie-flags", "third-party")
	if strings.Contains(r.text, "abc123") {
		t.Errorf("a cookie's value is in the answer: %s", r.text)
	}

	var mu sync.Mutex
	var progress []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			progress = append(progress, fmt.Sprint(n.Params.AdditionalFields["progress"], "/", n.Params.AdditionalFields["total"]))
			mu.Unlock()
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "auditLinks"
	req.Params.Arguments = map[string]any{"url": site.URL("/audit/links/index.html"), "maxPages": 5}
	req.Params.Meta = &mcp.Meta{ProgressToken: "crawl-1"}
	res, err := c.CallTool(testCtx(t), req)
	if err != nil || res.IsError {
		t.Fatalf("auditLinks: %v %+v", err, res)
	}
	text := mcp.GetTextFromContent(res.Content[0])
	if !strings.Contains(text, "5 pages opened") || !strings.Contains(text, "stopped: page limit of 5 reached") {
		t.Errorf("auditLinks: %s", text)
	}
	// The broken pages opened and the broken links checked are counted
	// apart, each beside what it is a part of.
	if m := regexp.MustCompile(`(\d+) pages opened \((\d+) broken\), (\d+) other links checked \((\d+) broken\)`).FindStringSubmatch(text); m == nil || atoi(m[2]) > atoi(m[1]) || atoi(m[4]) > atoi(m[3]) {
		t.Errorf("auditLinks counts: %s", text)
	}
	want := "[1/5 2/5 3/5 4/5 5/5]"
	if got := eventually(func() any { mu.Lock(); defer mu.Unlock(); return fmt.Sprint(progress) }, want); got != want {
		t.Errorf("progress %v, want %s", got, want)
	}

	r = callTool(t, c, "auditReport", map[string]any{"title": "Fixture audit"})
	mustOK(t, r)
	wantIn(t, r, "report of 5 audits")
	checkReport(t, c, r)
}

// checkReport opens the report an auditReport answer names in the browser and
// checks what it shows.
func checkReport(t *testing.T, c *client.Client, r result) {
	t.Helper()
	m := regexp.MustCompile(`: (\S+\.html)\n`).FindStringSubmatch(r.text)
	if m == nil {
		t.Fatalf("no report path in %q", r.text)
	}
	html, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "http://") && strings.Contains(string(html), "<script") {
		t.Errorf("the report is not self-contained (it has scripts)")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(html)
	}))
	defer srv.Close()
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": srv.URL + "/report.html"}))
	shown := callTool(t, c, "evaluate", map[string]any{"expression": `[document.title, document.querySelectorAll('#summary tr').length,
		document.querySelectorAll('.findings tr').length, document.querySelectorAll('img.shot').length,
		[...document.querySelectorAll('img.shot')].filter((i) => i.complete && i.naturalWidth > 0).length,
		document.querySelectorAll('svg.timeline rect').length]`})
	var got []any
	if err := json.Unmarshal([]byte(shown.text), &got); err != nil || len(got) != 6 {
		t.Fatalf("report in the browser: %s", shown.text)
	}
	if got[0] != "Fixture audit" || got[1].(float64) != 6 || got[2].(float64) < 30 || got[3].(float64) < 3 || got[3] != got[4] || got[5].(float64) < 5 {
		t.Errorf("the report shows [title, summary rows, finding rows, pictures, pictures drawn, timeline bars] = %v", got)
	}
	if shot := callTool(t, c, "screenshot", nil); shot.images != 1 {
		t.Errorf("screenshot of the report: %+v", shot)
	}
}

// Read-only audits change nothing on a page that watches for it: no user
// activation, DOM change, event or page code.
func TestAuditsChangeNothing(t *testing.T) {
	t.Parallel()
	c := newClient(t, auditServer(t, true, mgr, nil))
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/attack/watcher.html")}))
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"auditAccessibility", nil},
		{"auditAccessibility", map[string]any{"scope": "form"}},
		{"auditSecurity", nil},
		{"auditPerformance", nil},
		{"auditLinks", map[string]any{"url": site.URL("/home.html"), "maxPages": 2}},
		{"auditReport", nil},
	} {
		if r := callTool(t, c, call.name, call.args); r.isError {
			t.Errorf("%s %v: %s", call.name, call.args, r.text)
		}
	}
	mustOK(t, callTool(t, c, "waitForTimeout", map[string]any{"ms": 100}))
	if r := callTool(t, c, "getContent", map[string]any{"selector": "#record"}); r.isError || !strings.Contains(r.text, "[]") {
		t.Errorf("the page noticed the audits: %s", r.text)
	}
	if r := callTool(t, c, "getUrl", nil); r.text != site.URL("/attack/watcher.html") {
		t.Errorf("the current page is %s after the audits", r.text)
	}
}

// With origin rules the audits stay inside them: the crawl requests nothing
// of the other origin (its links, and a redirect there, are reported as
// outside), and a load elsewhere is refused before the browser is touched.
func TestAuditsWithAllowedOrigins(t *testing.T) {
	t.Parallel()
	own, err := fixtures.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	policy, err := origins.NewList([]string{own.Base}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true}, Origins: policy})
	defer m.Close()
	c := newClient(t, auditServer(t, true, m, policy))
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(90*time.Second))
	defer cancel()
	r := callToolCtx(t, ctx, c, "auditLinks", map[string]any{"url": own.URL("/audit/links/index.html")})
	mustOK(t, r)
	wantIn(t, r, "3 outside the allowed origins (not requested)", "missing.html")
	for _, path := range []string{"/audit/links/outside.html", "/status/404"} {
		if n := own.Hits(path); n != 0 {
			t.Errorf("%s on the other origin was requested %d times", path, n)
		}
	}
	r = callTool(t, c, "auditPerformance", map[string]any{"url": own.AltURL("/audit/perf-good.html")})
	if !r.isError || !strings.Contains(r.text, `"code":8`) {
		t.Errorf("auditPerformance outside the rules: %s", r.text)
	}
	r = callTool(t, c, "auditLinks", map[string]any{"url": own.AltURL("/audit/links/index.html")})
	if !r.isError || !strings.Contains(r.text, `"code":8`) {
		t.Errorf("auditLinks from outside the rules: %s", r.text)
	}
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": own.URL("/audit/a11y-good.html")}))
	wantIn(t, callTool(t, c, "auditAccessibility", nil), "no findings")
	wantIn(t, callToolCtx(t, ctx, c, "auditPerformance", map[string]any{"url": own.URL("/audit/perf-good.html")}), "(trace, throttle none)")
}

// atoi is the number a test read from an answer (0 when none).
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
