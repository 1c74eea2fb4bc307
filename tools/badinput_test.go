package tools

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Every model-fixable mistake is a tool result with isError, one clear sentence
// and a hint; never a protocol error, a panic or a hang.
func TestBadInput(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/actions.html")}))
	cases := []struct {
		name string
		tool string
		args map[string]any
		want string // in the message
	}{
		{"unknown page", "click", map[string]any{"selector": "#inc", "page": "p9"}, `no page "p9"`},
		{"no match", "click", map[string]any{"selector": "#missing"}, "no element matches"},
		{"invalid selector", "click", map[string]any{"selector": "a[["}, "not a valid CSS selector"},
		{"invalid selector in waitFor", "waitFor", map[string]any{"selector": "#a[", "timeoutMs": 500}, "not a valid CSS selector"},
		// Out of time before a first check (a busy machine): still invalid, not late.
		{"invalid selector in waitFor without time", "waitFor", map[string]any{"selector": "#a[", "timeoutMs": 1}, "not a valid CSS selector"},
		{"stale or unknown ref", "click", map[string]any{"ref": "999"}, "ref 999"},
		{"non-numeric ref", "click", map[string]any{"ref": "abc"}, "not a ref"},
		{"malformed URL", "navigate", map[string]any{"url": "ht!tp://x y"}, "URL"},
		{"URL without scheme", "navigate", map[string]any{"url": "example.com/path"}, "no scheme"},
		{"file URL", "navigate", map[string]any{"url": "file:///etc/passwd"}, "refused"},
		{"missing url", "navigate", map[string]any{}, `"url" is required`},
		{"missing target", "click", map[string]any{}, "ref or selector"},
		{"missing text", "type", map[string]any{"selector": "#name"}, `"text" is required`},
		{"wrong type", "click", map[string]any{"selector": 42}, `"selector" must be a string`},
		{"wrong type number", "navigate", map[string]any{"url": "http://x", "timeoutMs": "soon"}, `"timeoutMs" must be a whole number`},
		{"unknown argument", "navigate", map[string]any{"url": "http://x", "wait": "load"}, `unknown argument "wait"`},
		{"bad enum", "navigate", map[string]any{"url": site.URL("/home.html"), "waitUntil": "idle"}, "not a load state"},
		{"bad key", "pressKey", map[string]any{"key": "Ctrl+Foo"}, "not a key name"},
		{"bad chord order", "pressKey", map[string]any{"key": "A+Control"}, "not a modifier"},
		{"bad direction", "scroll", map[string]any{"direction": "sideways"}, "not a scroll direction"},
		{"bad button", "click", map[string]any{"selector": "#inc", "button": "fourth"}, "not a mouse button"},
		{"unknown CDP method", "cdp", map[string]any{"domain": "Page", "method": "frobnicate"}, "Page.frobnicate"},
		{"CDP params not object", "cdp", map[string]any{"domain": "Page", "method": "reload", "params": []int{1}}, "params must be"},
		{"mismatched CDP domain", "cdp", map[string]any{"domain": "Page", "method": "Runtime.evaluate"}, `is not in domain "Page"`},
		{"CDP params of the wrong type", "cdp", map[string]any{"method": "Runtime.evaluate", "params": map[string]any{"expression": 5}}, "params.expression"},
		{"CDP method without its domain", "cdp", map[string]any{"method": "getVersion"}, "Browser.getVersion"},
		{"evaluate on an element, no function", "evaluate", map[string]any{"expression": "el.textContent", "selector": "#inc"}, "(el) => el.textContent"},
		{"two values for a single select", "selectOption", map[string]any{"selector": "#color", "values": []string{"Red", "Blue"}}, "allows one choice"},
		{"fill a read-only field", "fill", map[string]any{"selector": "#ro", "value": "x"}, "read-only"},
		{"expression not a function", "evaluate", map[string]any{"expression": "1+", "selector": "#inc"}, "SyntaxError"},
		{"expression a value, not a function", "evaluate", map[string]any{"expression": "42", "selector": "#inc"}, "not a function"},
		{"evaluate throws", "evaluate", map[string]any{"expression": "null.x"}, "TypeError"},
		{"select missing option", "selectOption", map[string]any{"selector": "#color", "values": []string{"Purple"}}, "Purple"},
		{"upload missing file", "uploadFile", map[string]any{"selector": "#file", "paths": []string{"/nonexistent/x"}}, "cannot upload"},
		{"no dialog", "handleDialog", map[string]any{"accept": true}, "no dialog"},
		{"negative sleep", "waitForTimeout", map[string]any{"ms": -5}, "ms"},
		{"waitFor two things", "waitFor", map[string]any{"text": "a", "selector": "b"}, "exactly one"},
		{"unknown page to switch", "switchPage", map[string]any{"page": "p42"}, `no page "p42"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := callTool(t, c, tc.tool, tc.args)
			if !r.isError {
				t.Fatalf("%s(%v) succeeded: %s", tc.tool, tc.args, r.text)
			}
			if !strings.Contains(r.text, tc.want) {
				t.Errorf("message %q does not contain %q", r.text, tc.want)
			}
			if !strings.Contains(r.text, "hint") {
				t.Errorf("message %q has no hint", r.text)
			}
		})
	}
}

// Two pages of one client work in parallel: a long wait on one (two minutes,
// beyond the test bound) does not hold up the other.
func TestPagesInParallel(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	mustOK(t, callTool(t, c, "newPage", map[string]any{"url": site.URL("/second.html")}))
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() {
		_, err := callToolErr(ctx, c, "waitFor", map[string]any{"page": "p1", "text": "never", "timeoutMs": 120000})
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"page": "p2", "url": site.URL("/actions.html")}))
	mustOK(t, callTool(t, c, "click", map[string]any{"page": "p2", "selector": "#inc"}))
	select {
	case err := <-done:
		t.Fatalf("p1's wait ended early: %v", err)
	default:
	}
	cancel()
	if err := <-done; err == nil {
		t.Errorf("p1's cancelled wait returned no error")
	}
}

// Cancelling the MCP request cancels the CDP work: a promise that never
// settles, which only the call's timeout (beyond the test bound) would end.
func TestCancel(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := callToolErr(ctx, c, "evaluate", map[string]any{"expression": "new Promise(() => {})"})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("cancelled call returned no error")
		}
	case <-time.After(testbound.Bound()):
		t.Fatalf("the cancelled call still runs %s later", testbound.Bound())
	}
	// The page is still usable afterwards.
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "a"}))
}
