package tools

import (
	"regexp"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/mark3labs/mcp-go/client"
)

// Tests of the tools issue 15 added, through a real MCP client, checking the
// page's own state.

// allCapsClient connects a client to a server offering every capability group.
func allCapsClient(t *testing.T) *client.Client {
	t.Helper()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Caps: []string{CapAll}}, mgr)
	t.Cleanup(s.Close)
	return newClient(t, s)
}

// Drag and drop on an HTML5 kanban board (the card's id travels in
// dataTransfer) and on a pointer-driven sortable list dragged by its handle.
func TestDragThroughMCP(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/kanban.html")}))
	// The cards are elements a model can name by ref.
	wantIn(t, callTool(t, c, "snapshot", nil), "<div draggable>Write tests</div>")
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
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Origins: policy, Caps: []string{CapAll}}, m)
	t.Cleanup(s.Close)
	return newClient(t, s)
}

// A form in the innermost of three nested cross-site frames, found without a
// snapshot and filled in one call; the frame's own page shows it was sent.
func TestFindAndFillFormInNestedFrames(t *testing.T) {
	t.Parallel()
	c := allCapsClient(t)
	// Six sites deep, the innermost form is in the snapshot.
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/nest.html?d=6")}))
	wantIn(t, callTool(t, c, "snapshot", map[string]any{"maxTokens": -1}), "level 0 on", "<button>Send</button>")
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
