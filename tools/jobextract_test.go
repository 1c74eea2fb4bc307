// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// extract_structured's screenshot comes as a resource_link, as a job's
// artifacts do: a client over HTTP reads it through resources/read, and
// another tenant does not find it.
func TestExtractStructuredLinksItsScreenshot(t *testing.T) {
	t.Parallel()
	s, _ := newJobServer(t)
	url := serveHTTP(t, s)
	alice, bob := taskClient(t, url, asTenant("alice")), taskClient(t, url, asTenant("bob"))
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "browser.snapshot.extract_structured", map[string]any{"correlationId": "x-1", "url": site.URL("/jobs/product.html"),
		"schema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}
	res, err := alice.CallTool(testCtx(t), req)
	if err != nil || res.IsError {
		t.Fatalf("extract_structured: %v %+v", err, res)
	}
	var x struct {
		Artifacts map[string]string `json:"artifacts"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &x); err != nil || x.Artifacts["screenshot"] == "" {
		t.Fatalf("no screenshot among the artifacts: %s", b)
	}
	shot := resourceLink(t, res.Content, "screenshot.png")
	if shot.MIMEType != "image/png" || !strings.Contains(shot.Description, x.Artifacts["screenshot"]) {
		t.Errorf("the link %+v does not say it is the PNG at %s", shot, x.Artifacts["screenshot"])
	}
	got, err := alice.ReadResource(testCtx(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: shot.URI}})
	if err != nil || len(got.Contents) != 1 {
		t.Fatalf("resources/read %s: %v", shot.URI, err)
	}
	if blob, ok := got.Contents[0].(mcp.BlobResourceContents); !ok || blob.MIMEType != "image/png" || !pngData(blob.Blob) {
		t.Errorf("the screenshot read through resources/read: %T", got.Contents[0])
	}
	if _, err := bob.ReadResource(testCtx(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: shot.URI}}); err == nil || !strings.Contains(err.Error(), "resource not found") {
		t.Errorf("another tenant reads alice's screenshot: %v", err)
	}
}
