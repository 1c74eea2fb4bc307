package tools

import (
	"testing"
	"time"

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
