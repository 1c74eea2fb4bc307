package tools

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
)

// openPageTools navigates c's tab to the WebMCP fixture and waits until
// pageTools lists its four tools, the cross-site frame's too; it returns
// the list.
func openPageTools(t *testing.T, c *client.Client) string {
	t.Helper()
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/webmcp/tools.html")}))
	var list string
	testbound.Until(t, "pageTools to list the page's and its frame's tools", func() bool {
		r := callTool(t, c, "pageTools", nil)
		list = r.text
		return !r.isError && strings.HasPrefix(list, "4 tools on ")
	})
	return list
}

// A page's WebMCP tools are listed over MCP with what a model needs (name,
// read-only word, description, input schema, the frame of a frame's tool),
// and a call answers with the tool's result and what the page did.
func TestPageToolsOverMCP(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	list := openPageTools(t, c)
	for _, want := range []string{
		"getCount (read-only): Read the counter.",
		`addToCount: Add a number to the counter.` + "\n" + `  input: {"type":"object","properties":{"by":{"type":"number","description":"how much to add"}},"required":["by"]}`,
		"frameOrigin (read-only; in frame " + site.AltURL("/webmcp/frame.html") + "): Say the frame's origin.",
	} {
		if !strings.Contains(list, want) {
			t.Errorf("pageTools lacks %q:\n%s", want, list)
		}
	}
	r := callTool(t, c, "callPageTool", map[string]any{"name": "addToCount", "arguments": map[string]any{"by": 2}})
	if r.isError || !strings.HasPrefix(r.text, "result of addToCount: now 2\n") || !strings.Contains(r.text, `"act":"callPageTool"`) ||
		!strings.Contains(r.text, "added 2") {
		t.Errorf("callPageTool addToCount: %s", r.text)
	}
	r = callTool(t, c, "callPageTool", map[string]any{"name": "getCount"})
	if r.isError || !strings.HasPrefix(r.text, "result of getCount: 2\n") {
		t.Errorf("callPageTool getCount: %s", r.text)
	}
	r = callTool(t, c, "callPageTool", map[string]any{"name": "breakCount"})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 6 || !strings.Contains(r.text, "the counter is broken") {
		t.Errorf("callPageTool breakCount: %s", r.text)
	}
	r = callTool(t, c, "callPageTool", map[string]any{"name": "addToCount", "arguments": map[string]any{"by": "two"}})
	if !r.isError || !strings.Contains(r.text, "do not fit its schema") {
		t.Errorf("callPageTool with arguments its schema refuses: %s", r.text)
	}
}

// Read-only mode lists every tool and calls only those the page says only
// read; the others are refused before they run.
func TestPageToolsReadOnly(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	list := openPageTools(t, c)
	if !strings.Contains(list, "addToCount (changes the page: refused in read-only mode)") {
		t.Errorf("read-only pageTools does not mark the changing tool:\n%s", list)
	}
	r := callTool(t, c, "callPageTool", map[string]any{"name": "addToCount", "arguments": map[string]any{"by": 5}})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 8 || !strings.Contains(r.text, "readOnlyHint") {
		t.Errorf("a changing tool in read-only mode: %s", r.text)
	}
	if r := callTool(t, c, "callPageTool", map[string]any{"name": "getCount"}); r.isError || !strings.HasPrefix(r.text, "result of getCount: 0\n") {
		t.Errorf("a reading tool in read-only mode: %s", r.text)
	}
}

// The origin rules hold for page tools: a tool whose frame shows an origin
// the rules refuse (here the page was let in, its frame was loaded by a
// browser without the rules, as an attached one's tabs are) is not called.
func TestPageToolsOriginRules(t *testing.T) {
	t.Parallel()
	policy, err := origins.NewList(nil, []string{"http://localhost:*"})
	if err != nil {
		t.Fatal(err)
	}
	guarded := New(Config{Origins: policy, IsolateSessions: true, Timeout: callTimeout}, mgr)
	defer guarded.Close()
	c := newClient(t, guarded)
	list := openPageTools(t, c)
	if !strings.Contains(list, "frameOrigin (read-only; refused: the origin rules refuse") {
		t.Errorf("pageTools does not mark the refused frame's tool:\n%s", list)
	}
	r := callTool(t, c, "callPageTool", map[string]any{"name": "frameOrigin"})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 8 || !strings.Contains(r.text, site.AltBase) {
		t.Errorf("a tool of a refused origin: %s", r.text)
	}
	if r := callTool(t, c, "callPageTool", map[string]any{"name": "getCount"}); r.isError {
		t.Errorf("a tool of an allowed origin: %s", r.text)
	}
}
