package tools

import (
	"strings"
	"testing"
)

// The clipboard tool writes, and reads where the clipboard is the browser's
// own and one client's; a server whose sessions share the browser (HTTP)
// reads it only with --allow-clipboard-read.
func TestClipboardTool(t *testing.T) {
	t.Parallel()
	c := newClient(t) // srv isolates sessions: they share the browser's clipboard
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	if r := callTool(t, c, "clipboard", map[string]any{"op": "write", "text": "from the model"}); r.isError || r.text != "wrote 14 characters to the clipboard" {
		t.Errorf("clipboard write: %+v", r)
	}
	r := callTool(t, c, "clipboard", map[string]any{"op": "read"})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 8 || !strings.Contains(r.text, "--allow-clipboard-read") {
		t.Errorf("clipboard read with sessions sharing the browser: %s", r.text)
	}
	allowed := New(Config{IsolateSessions: true, Timeout: callTimeout, ClipboardRead: true}, mgr)
	defer allowed.Close()
	c2 := newClient(t, allowed)
	mustOK(t, callTool(t, c2, "navigate", map[string]any{"url": site.URL("/home.html")}))
	if r := callTool(t, c2, "clipboard", map[string]any{"op": "read"}); r.isError || r.text != "from the model" {
		t.Errorf("clipboard read with --allow-clipboard-read: %+v", r)
	}
	if r := callTool(t, c2, "clipboard", map[string]any{"op": "write"}); !r.isError || !strings.Contains(r.text, `"text" is required`) {
		t.Errorf("clipboard write without text: %+v", r)
	}
}

// The permissions tool grants the page's origin what it asks for and
// resets; what records the user is refused.
func TestPermissionsTool(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	query := map[string]any{"expression": "navigator.permissions.query({name: 'geolocation'}).then(s => s.state)"}
	r := callTool(t, c, "permissions", map[string]any{"op": "grant", "permissions": []string{"geolocation"}})
	if r.isError || r.text != "granted geolocation to "+site.Base+" in this session (reset takes them back)" {
		t.Errorf("permissions grant: %+v", r)
	}
	if r := callTool(t, c, "evaluate", query); r.text != `"granted"` {
		t.Errorf("geolocation after the grant: %s", r.text)
	}
	mustOK(t, callTool(t, c, "permissions", map[string]any{"op": "reset"}))
	if r := callTool(t, c, "evaluate", query); r.text == `"granted"` {
		t.Errorf("geolocation after the reset: %s", r.text)
	}
	if r := callTool(t, c, "permissions", map[string]any{"op": "grant", "permissions": []string{"camera"}}); !r.isError || !strings.Contains(r.text, "--grant-permissions") {
		t.Errorf("permissions grant camera: %+v", r)
	}
}
