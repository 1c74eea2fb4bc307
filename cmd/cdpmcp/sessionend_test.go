package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/mcp"
)

// A client whose HTTP session ends (DELETE) while one of its calls runs gets,
// on that call, an answer that says its session ended and to start a new
// one, not that its page closed (its tabs go with the session).
func TestHTTPSessionEndedUnderACall(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "sessionend")
	ctx := testCtx(t, time.Minute)
	c := httpClient(t, ctx, s.url, "")
	mustCall(t, ctx, c, "getTitle", nil) // the browser is up
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "waitFor", map[string]any{"text": "never shows", "timeoutMs": 30000}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Errorf("waitFor: %v", err)
		}
		answered <- res
	}()
	time.Sleep(testbound.Scale(time.Second)) // waitFor is polling
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, s.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Session-Id", c.GetSessionId())
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", err, res)
	}
	res.Body.Close()
	select {
	case r := <-answered:
		text := ""
		if r != nil && len(r.Content) > 0 {
			tc, _ := r.Content[0].(mcp.TextContent)
			text = tc.Text
		}
		if r == nil || !r.IsError || !strings.Contains(text, "this call's MCP session ended while it ran") || !strings.Contains(text, "hint: start a new session") {
			t.Errorf("the call under the ended session answered: %+v", r)
		}
	case <-time.After(testbound.Bound()):
		t.Fatal("the call under the ended session did not answer")
	}
}
