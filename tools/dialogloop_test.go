package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
)

// waitDialog waits until the page shows a dialog: page calls say so.
func waitDialog(t *testing.T, c *client.Client) {
	t.Helper()
	testbound.Until(t, "a dialog to open", func() bool {
		r := callTool(t, c, "getUrl", nil)
		return r.isError && strings.Contains(r.text, "dialog is open")
	})
}

// feedbackURL is the URL an action's feedback says the page is at.
func feedbackURL(t *testing.T, r result) string {
	t.Helper()
	var fb struct {
		Delta struct {
			URL string `json:"url"`
		} `json:"delta"`
	}
	if err := json.Unmarshal([]byte(r.text[strings.Index(r.text, "{"):]), &fb); err != nil {
		t.Fatalf("feedback %q: %v", r.text, err)
	}
	return fb.Delta.URL
}

// A page that opens dialogs without end (the next as soon as one is
// answered; alerts from its pagehide and unload handlers too) cannot hold
// its tab: navigate, reload, goBack and closePage leave it, each answer says
// what happened, and the tab is where the answer says.
func TestDialogsNeverHoldATab(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"alert", "confirm", "prompt"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := newClient(t)
			loop := site.URL("/attack/dialogs?kind=" + kind)
			mustOK(t, callTool(t, c, "navigate", map[string]any{"url": loop}))
			waitDialog(t, c)
			r := callTool(t, c, "navigate", map[string]any{"url": site.URL("/second.html")})
			mustOK(t, r)
			wantIn(t, r, "its renderer was stopped")
			if got := callTool(t, c, "getUrl", nil); got.isError || got.text != site.URL("/second.html") {
				t.Fatalf("after navigate: %+v", got)
			}

			mustOK(t, callTool(t, c, "navigate", map[string]any{"url": loop}))
			waitDialog(t, c)
			mustOK(t, callTool(t, c, "reload", nil))
			waitDialog(t, c) // the page, loaded anew, loops again

			r = callTool(t, c, "goBack", nil)
			mustOK(t, r)
			if got := callTool(t, c, "listPages", nil); !strings.Contains(got.text, feedbackURL(t, r)) {
				t.Errorf("goBack answered %s; the tab: %s", feedbackURL(t, r), got.text)
			}

			mustOK(t, callTool(t, c, "navigate", map[string]any{"url": loop}))
			waitDialog(t, c)
			wantIn(t, callTool(t, c, "closePage", nil), "closed")
		})
	}
}

// A navigation that does not happen never answers ok: the same address again
// while dialogs hold the page is loaded anew or fails, and an answer without a
// document (204) says the page stayed.
func TestNoOKForANavigationThatDidNotHappen(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	loop := site.URL("/attack/dialogs?kind=alert")
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": loop}))
	waitDialog(t, c)
	hits := site.Hits("/attack/dialogs")
	r := callTool(t, c, "navigate", map[string]any{"url": loop})
	if !r.isError && site.Hits("/attack/dialogs") == hits {
		t.Errorf("navigate to the same address answered ok with no new document: %s", r.text)
	}
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/second.html")}))
	r = callTool(t, c, "navigate", map[string]any{"url": site.URL("/attack/ping"), "timeoutMs": 5000})
	if !r.isError {
		t.Errorf("a navigation to a 204 answered ok: %s", r.text)
	}
	if got := callTool(t, c, "getUrl", nil); got.text != site.URL("/second.html") {
		t.Errorf("after the 204: %s", got.text)
	}
}
