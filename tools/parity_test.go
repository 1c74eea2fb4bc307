package tools

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/mark3labs/mcp-go/client"
)

// Tests of the tools issue 15 added, through a real MCP client, checking the
// page's own state.

// allCapsClient connects a client to a server offering every capability group.
func allCapsClient(t *testing.T) *client.Client {
	t.Helper()
	s := New(Config{IsolateSessions: true, Timeout: 20 * time.Second, Caps: []string{CapAll}}, mgr)
	t.Cleanup(s.Close)
	return newClient(t, s)
}

// Drag and drop on an HTML5 kanban board (the card's id travels in
// dataTransfer) and on a pointer-driven sortable list dragged by its handle.
func TestDragThroughMCP(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/kanban.html")}))
	r := callTool(t, c, "drag", map[string]any{"selector": "#c1", "to": "#doing"})
	mustOK(t, r)
	wantIn(t, r, `"act":"drag"`, "HTML5 drag: moved", "from To do 1/3 to Doing 2/2")
	if got := textOf(t, c, "#log"); got != "Write tests moved to Doing" {
		t.Errorf("board log = %q", got)
	}
	// Onto a point: the empty Done column, where its heading is.
	r = callTool(t, c, "drag", map[string]any{"selector": "#c4", "to": "480,150"})
	mustOK(t, r)
	if got := textOf(t, c, "#done"); !contains(got, "Review PR") {
		t.Errorf("Done column = %q (%s)", got, r.text)
	}

	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/sortable.html")}))
	r = callTool(t, c, "drag", map[string]any{"selector": "li[data-id=e] .handle", "to": "li[data-id=b]"})
	mustOK(t, r)
	wantIn(t, r, "pointer drag: moved", "from Priorities 5/5 to Priorities 2/5")
	if got := textOf(t, c, "#order"); got != "a e b c d" {
		t.Errorf("order = %q", got)
	}
	r = callToolRaw(t, c, "drag", map[string]any{"selector": "li[data-id=a] .handle"})
	if !r.isError || !contains(r.text, "to") {
		t.Errorf("drag without a target: %s", r.text)
	}
}

// The mouse at viewport coordinates, offered with --caps vision: a canvas
// records what reaches it.
func TestMouseThroughMCP(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/canvas.html")}))
	r := callTool(t, c, "mouse", map[string]any{"action": "click", "x": 251, "y": 181})
	mustOK(t, r)
	wantIn(t, r, `"act":"mouse"`, "<canvas")
	mustOK(t, callTool(t, c, "mouse", map[string]any{"action": "drag", "x": 61, "y": 91, "toX": 161, "toY": 91}))
	if got := textOf(t, c, "#log"); !contains(got, "click 200,100") || !contains(got, "up 110,10 dragged") {
		t.Errorf("canvas log = %q", got)
	}
	r = callToolRaw(t, c, "mouse", map[string]any{"action": "click", "x": 99999, "y": 1})
	if !r.isError || !contains(r.text, "viewport is") {
		t.Errorf("a click outside the viewport: %s", r.text)
	}
}

// A link that answers with a file (also after a redirect) answers with the
// file's name, size, type and path; downloads lists them.
func TestDownloadsThroughMCP(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/downloads.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#csv"})
	mustOK(t, r)
	wantIn(t, r, `"downloads":[{"name":"report.csv","size":300,"mime":"text/csv","path":"/`, `report.csv"}]`, `"e":"downloaded"`)
	r = callTool(t, c, "click", map[string]any{"selector": "#redirected"})
	mustOK(t, r)
	wantIn(t, r, `"name":"redirected.txt","size":20,"mime":"text/plain"`)
	r = callTool(t, c, "downloads", nil)
	mustOK(t, r)
	wantIn(t, r, "report.csv 300 B text/csv from p1 → /", "redirected.txt 20 B text/plain from p1 → /")
}

// With origin rules, a download from another origin is refused and said to
// be: the file never arrives.
func TestRefusedDownloadIsReported(t *testing.T) {
	t.Parallel()
	c := policyClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/downloads.html")}))
	before := site.Hits("/download/elsewhere.csv")
	r := callTool(t, c, "click", map[string]any{"selector": "#elsewhere"})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 8 || !contains(r.text, "blocked") || contains(r.text, `"downloads"`) {
		t.Errorf("a download from a refused origin: %s", r.text)
	}
	if got := site.Hits("/download/elsewhere.csv") - before; got != 0 {
		t.Errorf("the refused download reached the server %d times", got)
	}
	if r := callTool(t, c, "downloads", nil); r.text != "no downloads" {
		t.Errorf("downloads after a refused one: %s", r.text)
	}
}

// policyClient connects a client to a server (and browser) that lets pages
// reach 127.0.0.1 only, with every capability group.
func policyClient(t *testing.T) *client.Client {
	t.Helper()
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true}, Origins: policy})
	t.Cleanup(m.Close)
	s := New(Config{IsolateSessions: true, Timeout: 20 * time.Second, Origins: policy, Caps: []string{CapAll}}, m)
	t.Cleanup(s.Close)
	return newClient(t, s)
}

// A form in the innermost of three nested cross-site frames, found without a
// snapshot and filled in one call; the frame's own page shows it was sent.
func TestFindAndFillFormInNestedFrames(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/nest.html?d=3")}))
	r := callTool(t, c, "find", map[string]any{"role": "textbox", "name": "name"})
	mustOK(t, r)
	who := lineRef(t, r.text, `<input`)
	r = callTool(t, c, "find", map[string]any{"role": "combobox"})
	plan := lineRef(t, r.text, `<select`)
	r = callTool(t, c, "fillForm", map[string]any{"fields": []map[string]any{{"ref": who, "value": "Ada"}, {"ref": plan, "value": "Pro"}}})
	mustOK(t, r)
	wantIn(t, r, `"act":"fillForm"`, "filled 2 fields")
	r = callTool(t, c, "find", map[string]any{"role": "button", "name": "send"})
	mustOK(t, callTool(t, c, "click", map[string]any{"ref": lineRef(t, r.text, `<button`)}))
	r = callTool(t, c, "find", map[string]any{"text": "sent "})
	wantIn(t, r, "[:]<p>sent Ada Pro</p>")
}

// A sign-up form with every kind of field, filled in one call through MCP.
func TestFillFormThroughMCP(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/form.html")}))
	r := callTool(t, c, "fillForm", map[string]any{"fields": []map[string]any{
		{"selector": "#name", "value": "Ada"}, {"selector": "#country", "value": "jp"}, {"selector": "#news", "value": "true"},
		{"selector": "#basic", "value": "Pro"}, {"selector": "#start", "value": "2025-01-31"}, {"selector": "#volume", "value": "9"},
	}})
	mustOK(t, r)
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#submit"}))
	got := textOf(t, c, "#out")
	for _, want := range []string{"name=Ada", "country=jp", "news=true", "plan=pro", "start=2025-01-31", "volume=9"} {
		if !contains(got, want) {
			t.Errorf("form lacks %s:\n%s", want, got)
		}
	}
	r = callToolRaw(t, c, "fillForm", map[string]any{"fields": []map[string]any{{"value": "x"}}})
	if !r.isError || !contains(r.text, "names no element") {
		t.Errorf("a field without an element: %s", r.text)
	}
}

// lineRef returns the ref of the first line of text holding an element that
// starts as prefix does ("<input").
func lineRef(t *testing.T, text, prefix string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(\d+)\[:\]` + regexp.QuoteMeta(prefix)).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in:\n%s", prefix, text)
	}
	return m[1]
}

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
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: 20 * time.Second}, mgr)
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

// A draggable card the snapshot shows as text gets a ref from find, and drag
// takes it there.
func TestFindGivesTextARef(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/kanban.html")}))
	r := callTool(t, c, "find", map[string]any{"text": "update docs", "box": true})
	wantIn(t, r, "_[:]## To do\n", "[:]<div draggable>Update docs</div> [box=")
	ref := lineRef(t, r.text, "<div draggable>Update docs")
	mustOK(t, callTool(t, c, "drag", map[string]any{"ref": ref, "to": "#done"}))
	if got := textOf(t, c, "#log"); got != "Update docs moved to Done" {
		t.Errorf("board log = %q", got)
	}
}

// The reading tools of the capability groups, in read-only mode, change
// nothing a page can notice (the watcher page records any user activation,
// DOM change, input event or run of its code).
func TestReadOnlyGroupsChangeNothing(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: 20 * time.Second, Caps: []string{CapAll}}, mgr)
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
		if r := callToolRaw(t, c, name, map[string]any{}); !r.isError || !contains(r.text, "not found") {
			t.Errorf("%s is offered in read-only mode: %s", name, r.text)
		}
	}
	mustOK(t, callTool(t, c, "waitForTimeout", map[string]any{"ms": 100}))
	if r := callTool(t, c, "getContent", map[string]any{"selector": "#record"}); r.isError || !contains(r.text, "[]") {
		t.Errorf("the page noticed read-only tools: %s", r.text)
	}
}
