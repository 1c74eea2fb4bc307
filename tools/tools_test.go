package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/mcp"
)

func TestCatalogue(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	list, err := c.ListTools(testCtx(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"navigate", "reload", "goBack", "goForward", "click", "type", "fill", "pressKey", "hover",
		"selectOption", "scroll", "uploadFile", "handleDialog", "waitFor", "waitForTimeout", "evaluate", "getTitle",
		"getUrl", "getContent", "screenshot", "console", "network", "newPage", "closePage", "listPages", "switchPage", "cdp"}
	got := map[string]mcp.Tool{}
	for _, tool := range list.Tools {
		got[tool.Name] = tool
	}
	for _, name := range want {
		tool, ok := got[name]
		if !ok {
			t.Errorf("tool %s missing", name)
			continue
		}
		a := tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("tool %s does not set all four hints: %+v", name, a)
		}
		if *a.ReadOnlyHint && *a.DestructiveHint {
			t.Errorf("tool %s is both read-only and destructive", name)
		}
		if tool.Description == "" || len(tool.Description) > 300 {
			t.Errorf("tool %s description has %d bytes", name, len(tool.Description))
		}
	}
	b, _ := json.Marshal(list)
	t.Logf("tools/list: %d tools, %d bytes", len(list.Tools), len(b))

	ro := New(Config{ReadOnly: true}, mgr)
	defer ro.Close()
	for _, st := range ro.MCP().ListTools() {
		if !ro.Offers(st.Tool.Name) {
			continue // a stand-in that says why the tool is not offered
		}
		switch st.Tool.Name {
		case "click", "type", "fill", "pressKey", "hover", "selectOption", "uploadFile", "closePage":
			t.Errorf("read-only catalogue offers %s", st.Tool.Name)
		case "evaluate", "cdp":
			if h := st.Tool.Annotations.ReadOnlyHint; h == nil || !*h {
				t.Errorf("read-only %s is not marked read-only", st.Tool.Name)
			}
		}
		if h := st.Tool.Annotations.DestructiveHint; h == nil || *h {
			t.Errorf("read-only catalogue has destructive %s", st.Tool.Name)
		}
	}
}

func TestInteractionThroughMCP(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	r := callTool(t, c, "navigate", map[string]any{"url": site.URL("/actions.html")})
	mustOK(t, r)
	fb := feedbackOf(t, r)
	if d, _ := fb["delta"].(map[string]any); d["title"] != "Actions" || d["url"] != site.URL("/actions.html") {
		t.Errorf("navigate feedback = %s", r.text)
	}
	r = callTool(t, c, "click", map[string]any{"selector": "#inc"})
	mustOK(t, r)
	if fb := feedbackOf(t, r); fb["act"] != "click" || fb["ok"] != true || fb["code"].(float64) != 0 {
		t.Errorf("click feedback = %s", r.text)
	}
	mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#name", "value": "Alice"}))
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#name", "text": " B", "submit": true}))
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "submitted.textContent"}); r.text != `"submitted Alice B"` {
		t.Errorf("evaluate = %q", r.text)
	}
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "(el) => el.value", "selector": "#color"}); r.text != `"r"` {
		t.Errorf("evaluate on element = %q", r.text)
	}
	r = callTool(t, c, "selectOption", map[string]any{"selector": "#color", "values": []string{"Green"}})
	mustOK(t, r)
	if !strings.Contains(r.text, `"value":"g"`) {
		t.Errorf("selectOption feedback = %s", r.text)
	}
	mustOK(t, callTool(t, c, "pressKey", map[string]any{"key": "Control+A", "selector": "#keys"}))
	mustOK(t, callTool(t, c, "hover", map[string]any{"selector": "#hoverme"}))
	r = callTool(t, c, "scroll", map[string]any{"direction": "down", "amount": 300})
	mustOK(t, r)
	if !strings.Contains(r.text, "below=") {
		t.Errorf("scroll feedback = %s", r.text)
	}
	f := filepath.Join(t.TempDir(), "up.txt")
	if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustOK(t, callTool(t, c, "uploadFile", map[string]any{"selector": "#file", "paths": []string{f}}))
	r = callTool(t, c, "click", map[string]any{"selector": "#confirm"})
	if fb := feedbackOf(t, r); fb["dialog"] == nil {
		t.Errorf("click that opened a confirm: %s", r.text)
	}
	if r := callTool(t, c, "getTitle", nil); !r.isError || !strings.Contains(r.text, "dialog") {
		t.Errorf("getTitle while a dialog is open = %+v", r)
	}
	mustOK(t, callTool(t, c, "handleDialog", map[string]any{"accept": false}))
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "count.textContent"}); r.text != `"cancelled"` {
		t.Errorf("after dismissing confirm count = %s", r.text)
	}
	if r := callTool(t, c, "getTitle", nil); r.text != "Actions" {
		t.Errorf("getTitle = %q", r.text)
	}
	if r := callTool(t, c, "getUrl", nil); r.text != site.URL("/actions.html") {
		t.Errorf("getUrl = %q", r.text)
	}
	if r := callTool(t, c, "getContent", map[string]any{"selector": "h1", "format": "text"}); r.text != "Actions" {
		t.Errorf("getContent = %q", r.text)
	}
	if r := callTool(t, c, "screenshot", nil); r.isError || r.images != 1 {
		t.Errorf("screenshot = %+v", r)
	}
	if r := callTool(t, c, "screenshot", map[string]any{"selector": "#inc", "format": "jpeg"}); r.isError || r.images != 1 {
		t.Errorf("element screenshot = %+v", r)
	}
	r = callTool(t, c, "cdp", map[string]any{"domain": "Runtime", "method": "evaluate", "params": map[string]any{"expression": "6*7", "returnByValue": true}})
	if !strings.Contains(r.text, `"value":42`) {
		t.Errorf("cdp = %s", r.text)
	}
	if r := callTool(t, c, "cdp", map[string]any{"domain": "Browser", "method": "getVersion", "page": "browser"}); !strings.Contains(r.text, "product") {
		t.Errorf("browser-level cdp = %s", r.text)
	}
}

func TestNavigationTools(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "a"})
	mustOK(t, r)
	if fb := feedbackOf(t, r); fb["delta"] == nil || !strings.Contains(r.text, "/second.html") {
		t.Errorf("click on a link did not report the new URL: %s", r.text)
	}
	r = callTool(t, c, "goBack", nil)
	mustOK(t, r)
	if !strings.Contains(r.text, "/home.html") {
		t.Errorf("goBack = %s", r.text)
	}
	mustOK(t, callTool(t, c, "goForward", nil))
	mustOK(t, callTool(t, c, "reload", map[string]any{"ignoreCache": true}))
	r = callTool(t, c, "navigate", map[string]any{"url": site.URL("/redirect?to=/second.html")})
	mustOK(t, r)
	if !strings.Contains(r.text, `"s":302`) || !strings.Contains(r.text, `"url":"/second.html"`) {
		t.Errorf("redirect not visible: %s", r.text)
	}
	// A 404 page arrived: a page to read, its status said.
	r = callTool(t, c, "navigate", map[string]any{"url": site.URL("/status/404")})
	if fb := feedbackOf(t, r); r.isError || fb["code"].(float64) != 0 || !strings.Contains(r.text, `"status":404`) {
		t.Errorf("404 navigation = %s", r.text)
	}
	r = callTool(t, c, "navigate", map[string]any{"url": "http://127.0.0.1:1/"})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != float64(cdpclient.CodeNetworkError) || fb["hint"] == nil {
		t.Errorf("refused connection = %s", r.text)
	}
}

func TestPagesAndLogs(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/late.html?delay=50")}))
	mustOK(t, callTool(t, c, "waitFor", map[string]any{"text": "Data loaded"}))
	r := callTool(t, c, "newPage", map[string]any{"url": site.URL("/second.html")})
	mustOK(t, r)
	if !strings.Contains(r.text, "* p2 Second page") || !strings.Contains(r.text, "p1 Late content") {
		t.Errorf("newPage = %s", r.text)
	}
	if r := callTool(t, c, "getTitle", map[string]any{"page": "p1"}); r.text != "Late content" {
		t.Errorf("getTitle p1 = %q", r.text)
	}
	mustOK(t, callTool(t, c, "switchPage", map[string]any{"page": "p1"}))
	if r := callTool(t, c, "getTitle", nil); r.text != "Late content" {
		t.Errorf("current after switch = %q", r.text)
	}
	r = callTool(t, c, "console", map[string]any{"level": "error"})
	if !strings.Contains(r.text, "late error for the console tool") {
		t.Errorf("console = %q", r.text)
	}
	if r := callTool(t, c, "console", map[string]any{"contains": "no such message"}); r.text != "no console messages match" {
		t.Errorf("console with a filter that matches nothing = %q", r.text)
	}
	r = callTool(t, c, "network", map[string]any{"filter": "failed"})
	if !strings.Contains(r.text, "404 /status/404") {
		t.Errorf("network failed = %q", r.text)
	}
	// Messages of an earlier page are set apart from the next page's.
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/second.html")}))
	mustOK(t, callTool(t, c, "evaluate", map[string]any{"expression": "console.error('second page error'), 1"}))
	r = callTool(t, c, "console", map[string]any{"level": "error"})
	if !regexp.MustCompile(`(?s)late error for the console tool.*
— then the tab went to /second.html —
.*second page error`).MatchString(r.text) {
		t.Errorf("console across a navigation = %q", r.text)
	}
	mustOK(t, callTool(t, c, "goBack", nil))
	r = callTool(t, c, "closePage", map[string]any{"page": "p2"})
	mustOK(t, r)
	if strings.Contains(r.text, "p2 Second") {
		t.Errorf("closePage = %s", r.text)
	}
	if r := callTool(t, c, "listPages", nil); r.text != "* p1 Late content — "+site.URL("/late.html?delay=50") {
		t.Errorf("listPages = %q", r.text)
	}
	if r := callTool(t, c, "waitForTimeout", map[string]any{"ms": 10}); r.text != "waited 10 ms" {
		t.Errorf("waitForTimeout = %q", r.text)
	}
}

func TestWaitFor(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/late.html?delay=300")}))
	mustOK(t, callTool(t, c, "waitFor", map[string]any{"selector": "#late", "timeoutMs": testbound.Bound().Milliseconds()}))
	mustOK(t, callTool(t, c, "waitFor", map[string]any{"selector": "#spinner", "state": "detached"}))
	r := callTool(t, c, "waitFor", map[string]any{"text": "never there", "timeoutMs": 300})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != float64(cdpclient.CodeTimeout) || fb["hint"] == nil {
		t.Errorf("waitFor timeout = %s", r.text)
	}
	// A wait that spans a navigation keeps waiting in the new document.
	mustOK(t, callTool(t, c, "evaluate", map[string]any{"expression": "setTimeout(() => location.href = '/second.html', 100), 1"}))
	mustOK(t, callTool(t, c, "waitFor", map[string]any{"text": "Second"}))
}

// A navigation that names no timeoutMs is bounded by the server's --timeout,
// not a fixed 30 s; one that runs out of time before a page arrives is
// stopped: the tab stays where it was (ok:false is true), and the next
// navigation goes ahead.
func TestNavigationTakesTheServersTimeout(t *testing.T) {
	t.Parallel()
	timeout := testbound.Scale(2 * time.Second)
	s := New(Config{IsolateSessions: true, Timeout: timeout}, mgr)
	defer s.Close()
	c := newClient(t, s)
	long := testbound.Bound().Milliseconds()
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html"), "timeoutMs": long}))
	slow := fmt.Sprintf("/jobs/slowpage?ms=%d", 2*timeout.Milliseconds())
	r := callTool(t, c, "navigate", map[string]any{"url": site.URL(slow)})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != float64(cdpclient.CodeTimeout) {
		t.Fatalf("a page slower than --timeout: %s", r.text)
	}
	wantIn(t, r, "the tab stays where it was")
	time.Sleep(2*timeout + time.Second) // the page would have arrived by now
	if r := callTool(t, c, "getUrl", nil); r.text != site.URL("/home.html") {
		t.Errorf("after the navigation ran out of time the tab is at %q, want the page it was on", r.text)
	}
	wantIn(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/jobs/slowpage?ms=100"), "timeoutMs": long}), "Slow page")
}
