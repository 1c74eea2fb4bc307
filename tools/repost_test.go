package tools

import (
	"strings"
	"testing"
	"time"
)

// A page that posts and then floods the network log past its bound: in
// read-only mode, reload and history still know that page came from a post
// (the history entry says so, not the log), and never send it again.
func TestReadOnlyKnowsAPostPastAFloodedLog(t *testing.T) {
	t.Parallel()
	ro := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: 20 * time.Second}, mgr)
	defer ro.Close()
	c := newClient(t, ro)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/attack/autopost-flood")}))
	wantIn(t, callTool(t, c, "waitFor", map[string]any{"text": "Flooded", "timeoutMs": 20000}), "ok")
	posts := site.FloodPosts()
	for _, step := range []struct {
		tool string
		args map[string]any
	}{{"reload", nil}, {"navigate", map[string]any{"url": site.URL("/second.html")}}, {"goBack", nil}} {
		r := callTool(t, c, step.tool, step.args)
		if step.tool == "navigate" {
			mustOK(t, r)
			continue
		}
		if !r.isError || !strings.Contains(r.text, `"code":8`) || !strings.Contains(r.text, "form post") {
			t.Errorf("%s to the posted page after the flood: %s", step.tool, r.text)
		}
	}
	if got := site.FloodPosts(); got != posts {
		t.Errorf("the form was sent again: %d posts, then %d", posts, got)
	}
	// A page got by GET reloads as ever.
	mustOK(t, callTool(t, c, "reload", nil))
}
