package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Sign in once: cookies and localStorage saved to a file, loaded by another
// session, which the site then knows; named contexts keep two users apart.
func TestStateThroughMCP(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/signin?user=alice")}))
	wantIn(t, callTool(t, c, "webStorage", map[string]any{"op": "set", "key": "theme", "value": "dark"}), "set done, 1 items")
	wantIn(t, callTool(t, c, "webStorage", map[string]any{"op": "list"}), "localStorage of "+site.Base+":\ntheme=dark")
	wantIn(t, callTool(t, c, "cookies", map[string]any{"op": "list"}), "session=user-alice; domain=127.0.0.1; path=/", "httpOnly")
	path := filepath.Join(t.TempDir(), "state.json")
	wantIn(t, callTool(t, c, "storageState", map[string]any{"op": "save", "path": path}), "saved 1 cookies and the localStorage of 1 origins")

	// Named contexts: bob signs in apart from alice.
	wantIn(t, callTool(t, c, "contexts", map[string]any{"op": "new", "name": "bob"}), "  default\n* bob")
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/signin?user=bob")}))
	wantIn(t, callTool(t, c, "getContent", map[string]any{"selector": "#who", "format": "text"}), "signed in as bob")
	mustOK(t, callTool(t, c, "contexts", map[string]any{"op": "use", "name": "default"}))
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/account")}))
	wantIn(t, callTool(t, c, "getContent", map[string]any{"selector": "#who", "format": "text"}), "signed in as alice")
	wantIn(t, callTool(t, c, "contexts", map[string]any{"op": "close", "name": "bob"}), "* default")
	if r := callTool(t, c, "contexts", map[string]any{"op": "use", "name": "bob"}); !r.isError || !contains(r.text, "no context named bob") {
		t.Errorf("using a closed context: %s", r.text)
	}

	// Another session (its own context) loads the file.
	other := allCapsClient(t)
	wantIn(t, callTool(t, other, "storageState", map[string]any{"op": "load", "path": path}), "loaded 1 cookies")
	mustOK(t, callTool(t, other, "navigate", map[string]any{"url": site.URL("/account")}))
	wantIn(t, callTool(t, other, "getContent", map[string]any{"format": "text"}), "signed in as alice", "theme dark")
	wantIn(t, callTool(t, other, "cookies", map[string]any{"op": "delete", "name": "session"}), "removed 1 cookies")
	mustOK(t, callTool(t, other, "reload", nil))
	wantIn(t, callTool(t, other, "getContent", map[string]any{"selector": "#who", "format": "text"}), "signed in as nobody")

	// Read-only mode reads state and changes none.
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout}, mgr)
	t.Cleanup(ro.Close)
	rc := newClient(t, ro)
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"cookies", map[string]any{"op": "set", "name": "x", "value": "1", "url": site.URL("/")}},
		{"webStorage", map[string]any{"op": "clear"}},
		{"storageState", map[string]any{"op": "load", "path": path}},
	} {
		if r := callTool(t, rc, call.name, call.args); !r.isError || !contains(r.text, `"code":8`) {
			t.Errorf("%s %v in read-only mode: %s", call.name, call.args, r.text)
		}
	}
	mustOK(t, callTool(t, rc, "cookies", map[string]any{"op": "list"}))
}

// emulate and resize, as the page sees them.
func TestEmulationThroughMCP(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	r := callTool(t, c, "resize", map[string]any{"width": 640, "height": 480})
	wantIn(t, r, "viewport 640×480")
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "innerWidth + 'x' + innerHeight"}); r.text != `"640x480"` {
		t.Errorf("after resize the page is %s", r.text)
	}
	r = callTool(t, c, "emulate", map[string]any{"device": "Pixel 7", "colorScheme": "dark", "timezone": "America/New_York"})
	wantIn(t, r, "Pixel 7: viewport 412×915 at 2.625×", "color scheme dark", "time zone America/New_York")
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "[screen.width, matchMedia('(prefers-color-scheme: dark)').matches, Intl.DateTimeFormat().resolvedOptions().timeZone]"}); r.text != `[412,true,"America/New_York"]` {
		t.Errorf("emulated page sees %s", r.text)
	}
	if r := callToolRaw(t, c, "emulate", map[string]any{"latitude": 1}); !r.isError || !contains(r.text, "together") {
		t.Errorf("latitude alone: %s", r.text)
	}
}

// pdf saves the page; request answers one request in detail; route answers
// requests by pattern, and the origin rules still come first.
func TestOutputsThroughMCP(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/api.html")}))
	path := filepath.Join(t.TempDir(), "items.pdf")
	r := callTool(t, c, "pdf", map[string]any{"path": path, "format": "A4"})
	wantIn(t, r, "saved "+path, "1 pages")
	if b, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Errorf("the PDF file: %v", err)
	}

	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#load"}))
	r = callTool(t, c, "request", map[string]any{"url": "data.json", "body": true})
	wantIn(t, r, "GET "+site.URL("/parity/data.json"), "200 OK, Fetch, application/json", "response headers:", "Content-Type: application/json", "response body:\n{\"items\": [\"real\"]}")

	r = callTool(t, c, "route", map[string]any{"op": "add", "pattern": "*/parity/data.json", "action": "fulfill",
		"contentType": "application/json", "body": `{"items":["from a route"]}`})
	wantIn(t, r, "*/parity/data.json → fulfill 200 (26 bytes), 0 hits")
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#load"}))
	if got := textOf(t, c, "#out"); got != "200 from a route" {
		t.Errorf("with the route the page shows %q", got)
	}
	wantIn(t, callTool(t, c, "route", map[string]any{"op": "remove"}), "no routes")
	if r := callToolRaw(t, c, "route", map[string]any{"op": "add", "pattern": "*", "action": "redirect"}); !r.isError {
		t.Errorf("an unknown route action: %s", r.text)
	}

	// Origin rules come first: a route cannot answer for a refused origin.
	pc := policyClient(t)
	mustOK(t, callTool(t, pc, "navigate", map[string]any{"url": site.URL("/parity/api.html")}))
	mustOK(t, callTool(t, pc, "route", map[string]any{"op": "add", "pattern": "*/elsewhere*", "action": "fulfill", "body": "leaked"}))
	r = callTool(t, pc, "evaluate", map[string]any{"expression": "fetch(" + strconvQuote(site.AltURL("/elsewhere")) + ").then(r => r.text(), e => 'refused: ' + e.message)"})
	if !contains(r.text, "refused") {
		t.Errorf("a route answered for a refused origin: %s", r.text)
	}
	mustOK(t, callTool(t, pc, "route", map[string]any{"op": "add", "pattern": "*/parity/data.json", "action": "fulfill", "body": `{"items":["allowed"]}`}))
	mustOK(t, callTool(t, pc, "click", map[string]any{"selector": "#load"}))
	if got := textOf(t, pc, "#out"); got != "200 allowed" {
		t.Errorf("a route under origin rules: %q", got)
	}
}

func strconvQuote(s string) string { return strconv.Quote(s) }

// The reading tools of the capability groups, in read-only mode, change
// nothing a page can notice (the watcher page records any user activation,
// DOM change, input event or run of its code).
func TestReadOnlyGroupsChangeNothing(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout, Caps: []string{CapAll}}, mgr)
	t.Cleanup(ro.Close)
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/attack/watcher.html")}))
	state := filepath.Join(t.TempDir(), "state.json")
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"find", map[string]any{"role": "textbox", "box": true}},
		{"find", map[string]any{"text": "notices", "box": true}},
		{"downloads", nil},
		{"request", map[string]any{"url": "watcher", "body": true}},
		{"cookies", map[string]any{"op": "list"}},
		{"webStorage", map[string]any{"op": "list"}},
		{"webStorage", map[string]any{"op": "list", "kind": "session"}},
		{"storageState", map[string]any{"op": "save", "path": state}},
		{"contexts", map[string]any{"op": "list"}},
	} {
		if r := callTool(t, c, call.name, call.args); r.isError {
			t.Errorf("%s %v in read-only mode: %s", call.name, call.args, r.text)
		}
	}
	for _, name := range []string{"drag", "mouse", "fillForm", "emulate", "resize", "pdf", "route"} {
		if r := callToolRaw(t, c, name, map[string]any{}); !r.isError || !contains(r.text, name+" is not available in --read-only mode") {
			t.Errorf("%s is offered in read-only mode: %s", name, r.text)
		}
	}
	mustOK(t, callTool(t, c, "waitForTimeout", map[string]any{"ms": 100}))
	if r := callTool(t, c, "getContent", map[string]any{"selector": "#record"}); r.isError || !contains(r.text, "[]") {
		t.Errorf("the page noticed read-only tools: %s", r.text)
	}
}
