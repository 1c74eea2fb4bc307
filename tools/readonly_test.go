package tools

import (
	"strings"
	"testing"
	"time"
)

// Read-only mode (seed 004's audit mode): no tool can change the page.
func TestReadOnlyMode(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: 20 * time.Second}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/actions.html")}))
	for _, name := range []string{"click", "type", "fill", "pressKey", "selectOption", "uploadFile"} {
		r := callToolRaw(t, c, name, map[string]any{"selector": "#inc", "text": "x", "value": "x", "key": "Enter", "values": []string{"x"}, "paths": []string{"/x"}})
		if !r.isError || !strings.Contains(r.text, "not found") {
			t.Errorf("%s in read-only mode: %+v", name, r)
		}
	}
	r := callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#count').textContent = 'hacked'"})
	if !r.isError || !strings.Contains(r.text, "PERMISSION") {
		t.Errorf("side effect in read-only evaluate: %s", r.text)
	}
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#count').textContent"}); r.text != `"0"` {
		t.Errorf("read in read-only evaluate: %s", r.text)
	}
	r = callTool(t, c, "cdp", map[string]any{"domain": "Runtime", "method": "evaluate", "params": map[string]any{"expression": "1"}})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 8 || !strings.Contains(r.text, "Runtime.evaluate") {
		t.Errorf("cdp Runtime.evaluate in read-only mode: %s", r.text)
	}
	if r := callTool(t, c, "cdp", map[string]any{"domain": "Page", "method": "getLayoutMetrics"}); r.isError {
		t.Errorf("read-only cdp getter refused: %s", r.text)
	}
	for _, u := range []string{"javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd", "chrome://settings"} {
		r := callTool(t, c, "navigate", map[string]any{"url": u})
		if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 8 {
			t.Errorf("navigate %s in read-only mode: %s", u, r.text)
		}
	}
	// A page's own confirm dialog can be dismissed, not accepted.
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/confirm.html")}))
	mustOK(t, callTool(t, c, "waitForTimeout", map[string]any{"ms": 200}))
	if r := callTool(t, c, "getTitle", nil); !r.isError || !strings.Contains(r.text, "Delete everything?") {
		t.Errorf("getTitle with the confirm open: %s", r.text)
	}
	r = callTool(t, c, "handleDialog", map[string]any{"accept": true})
	if fb := feedbackOf(t, r); !r.isError || fb["code"].(float64) != 8 {
		t.Errorf("accepting a confirm in read-only mode: %s", r.text)
	}
	mustOK(t, callTool(t, c, "handleDialog", map[string]any{"accept": false}))
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#answer').textContent"}); r.text != `"kept"` {
		t.Errorf("after dismissing: %s", r.text)
	}
	if got := callTool(t, c, "snapshot", nil); got.isError || !strings.Contains(got.text, "kept") {
		t.Errorf("snapshot in read-only mode: %s", got.text)
	}
}

// A ref is a number, never code: one crafted to run script in the page (through
// the tools read-only mode keeps, scroll and waitFor) changes nothing.
func TestReadOnlyRefIsNotCode(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: 20 * time.Second}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/actions.html")}))
	evil := "1, document.querySelector('#count').textContent = 'hacked'"
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"scroll", map[string]any{"direction": "to_element", "ref": evil}},
		{"waitFor", map[string]any{"ref": evil, "timeoutMs": 300}},
	} {
		if r := callToolRaw(t, c, call.name, call.args); !r.isError {
			t.Errorf("%s with a ref that is code: %s", call.name, r.text)
		}
	}
	if r := callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#count').textContent"}); r.text != `"0"` {
		t.Errorf("a crafted ref ran in the page: #count = %s", r.text)
	}
}
