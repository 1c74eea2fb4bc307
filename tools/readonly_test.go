package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Read-only mode (seed 004's audit mode): no tool can change the page.
func TestReadOnlyMode(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/actions.html")}))
	for _, name := range []string{"click", "type", "fill", "pressKey", "selectOption", "uploadFile"} {
		r := callToolRaw(t, c, name, map[string]any{"selector": "#inc", "text": "x", "value": "x", "key": "Enter", "values": []string{"x"}, "paths": []string{"/x"}})
		if !r.isError || !strings.Contains(r.text, name+" is not available in --read-only mode: it can change the page") {
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
	// Its hint names what read-only mode lets through, not the whole list.
	r = callTool(t, c, "cdp", map[string]any{"method": "DOM.setAttributeValue", "params": map[string]any{"nodeId": 1, "name": "x", "value": "y"}})
	if fb := feedbackOf(t, r); !r.isError || !strings.Contains(fmt.Sprint(fb["hint"]), "allowed in read-only mode: getters of") {
		t.Errorf("cdp DOM.setAttributeValue in read-only mode: %s", r.text)
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
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout}, mgr)
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

// Read-only mode holds against the page: the reading tools (snapshot, diff,
// screenshot, content, waits, scrolling, the cdp getters) give the page no
// user activation, change nothing in its DOM, fire none of its input events
// and run none of its code (getters, toString, a Proxy's traps, an overridden
// innerText); evaluate's results are read without running page code, and
// annotated screenshots are drawn onto the image. A full-page screenshot would
// resize the viewport (the page would see a resize event): refused.
func TestReadOnlyChangesNothing(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/attack/watcher.html")}))
	calls := []struct {
		name string
		args map[string]any
	}{
		{"snapshot", nil},
		{"snapshot", map[string]any{"diff": true}},
		{"snapshot", map[string]any{"selector": "form"}},
		{"screenshot", nil},
		{"screenshot", map[string]any{"selector": "#name"}},
		{"screenshot", map[string]any{"annotate": true}},
		{"evaluate", map[string]any{"expression": "window.trap"}},
		{"evaluate", map[string]any{"expression": "[window.proxy, window.trap, document.querySelector('#name')]"}},
		{"getContent", nil},
		{"getContent", map[string]any{"format": "html"}},
		{"getTitle", nil},
		{"getUrl", nil},
		{"waitFor", map[string]any{"selector": "#name", "timeoutMs": 1000}},
		{"waitFor", map[string]any{"text": "notices", "timeoutMs": 1000}},
		{"scroll", map[string]any{"direction": "down", "amount": 300}},
		{"scroll", map[string]any{"direction": "to_element", "selector": "#far"}},
		{"console", nil},
		{"network", nil},
		{"listPages", nil},
		{"cdp", map[string]any{"domain": "DOM", "method": "getDocument", "params": map[string]any{"depth": -1}}},
		{"cdp", map[string]any{"domain": "Accessibility", "method": "getFullAXTree"}},
		{"cdp", map[string]any{"domain": "DOMSnapshot", "method": "captureSnapshot", "params": map[string]any{"computedStyles": []string{}}}},
		{"cdp", map[string]any{"domain": "Page", "method": "captureScreenshot"}},
		{"cdp", map[string]any{"domain": "Page", "method": "getLayoutMetrics"}},
		{"cdp", map[string]any{"domain": "Target", "method": "getTargets", "page": "browser"}},
	}
	for _, call := range calls {
		if r := callTool(t, c, call.name, call.args); r.isError {
			t.Errorf("%s %v in read-only mode: %s", call.name, call.args, r.text)
		}
	}
	// An element read through the protocol, prototype chain and previews
	// included: the page's overridden innerText getter does not run.
	doc := cdpCall(t, c, "", "DOM.getDocument", nil)
	var d struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	if err := json.Unmarshal([]byte(doc.text), &d); err != nil {
		t.Fatalf("DOM.getDocument: %s", doc.text)
	}
	q := cdpCall(t, c, "", "DOM.querySelector", map[string]any{"nodeId": d.Root.NodeID, "selector": "#name"})
	var n struct {
		NodeID int `json:"nodeId"`
	}
	_ = json.Unmarshal([]byte(q.text), &n)
	res := cdpCall(t, c, "", "DOM.resolveNode", map[string]any{"nodeId": n.NodeID})
	var o struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if err := json.Unmarshal([]byte(res.text), &o); err != nil || o.Object.ObjectID == "" {
		t.Fatalf("DOM.resolveNode: %s", res.text)
	}
	for _, own := range []bool{true, false} {
		if r := cdpCall(t, c, "", "Runtime.getProperties", map[string]any{"objectId": o.Object.ObjectID, "ownProperties": own, "generatePreview": true}); r.isError {
			t.Errorf("Runtime.getProperties: %s", r.text)
		}
	}
	if r := callTool(t, c, "screenshot", map[string]any{"fullPage": true}); !r.isError || !strings.Contains(r.text, "resize") {
		t.Errorf("a full-page screenshot in read-only mode: %s", r.text)
	}
	mustOK(t, callTool(t, c, "waitForTimeout", map[string]any{"ms": 100}))
	r := callTool(t, c, "getContent", map[string]any{"selector": "#record"})
	if r.isError || !strings.Contains(r.text, "[]") {
		t.Errorf("the page noticed read-only tools: %s", r.text)
	}
}
