package tools

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// A file a tool writes comes back as data (structuredContent files, valid
// against the tool's outputSchema) and as a resource_link its tenant reads
// through resources/read, the same bytes as on disk; another tenant does
// not find it. auditLinks, a long audit, runs as a task and answers the
// same.
func TestFilesAreResources(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Caps: []string{"audit"}, Artifacts: t.TempDir()}, mgr)
	t.Cleanup(s.Close)
	url := serveHTTP(t, s)
	alice := taskClient(t, url, transport.WithHTTPHeaders(map[string]string{"X-Test-Tenant": "alice"}))
	bob := taskClient(t, url, transport.WithHTTPHeaders(map[string]string{"X-Test-Tenant": "bob"}))
	list, err := alice.ListTools(testCtx(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if fileTools[tool.Name] && tool.OutputSchema.Properties["files"] == nil {
			t.Errorf("%s has no files outputSchema", tool.Name)
		}
	}
	if _, err := alice.CallTool(testCtx(t), navigateTo(site.URL("/audit/a11y-bad.html"))); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "auditAccessibility"
	res, err := alice.CallTool(testCtx(t), req)
	if err != nil || res.IsError {
		t.Fatalf("auditAccessibility: %v %+v", err, res)
	}
	files := filesOf(t, res)
	if len(files) != 1 || !strings.HasPrefix(files[0]["uri"], "cdpmcp://files/") || files[0]["mimeType"] != "application/json" {
		t.Fatalf("the files it answers: %v", files)
	}
	link := resourceLink(t, res.Content, ".json")
	onDisk, err := os.ReadFile(files[0]["path"])
	if err != nil || link.URI != files[0]["uri"] {
		t.Fatalf("link %s, file %v", link.URI, err)
	}
	if got := readText(t, alice, link.URI); got != string(onDisk) {
		t.Errorf("resources/read gave %d bytes, the file has %d", len(got), len(onDisk))
	}
	if _, err := bob.ReadResource(testCtx(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: link.URI}}); err == nil || !strings.Contains(err.Error(), "resource not found") {
		t.Errorf("another tenant reads the file: %v", err)
	}

	task := callAsTask(t, testCtx(t), alice, "auditLinks", map[string]any{"url": site.URL("/audit/links/index.html"), "maxPages": 3})
	if got := pollTask(t, alice, task.TaskId, testbound.Scale(5*time.Second)); got.Status != mcp.TaskStatusCompleted {
		t.Fatalf("auditLinks as a task: %s %s", got.Status, got.StatusMessage)
	}
	tr, err := alice.TaskResult(testCtx(t), mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: task.TaskId}})
	if err != nil || tr.IsError {
		t.Fatalf("auditLinks' answer: %v %+v", err, tr)
	}
	got := filesOf(t, &mcp.CallToolResult{StructuredContent: tr.StructuredContent})
	if len(got) != 1 {
		t.Fatalf("auditLinks' files: %v", got)
	}
	if b, err := os.ReadFile(got[0]["path"]); err != nil || readText(t, alice, got[0]["uri"]) != string(b) {
		t.Errorf("auditLinks' data through resources/read differs from the file: %v", err)
	}
}

func navigateTo(url string) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "navigate", map[string]any{"url": url}
	return req
}

// filesOf decodes a file tool's structured answer.
func filesOf(t *testing.T, res *mcp.CallToolResult) []map[string]string {
	t.Helper()
	var out struct {
		Files []map[string]string `json:"files"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out.Files == nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return out.Files
}

// auditReport tells a client where its report is in terms it can use: over
// HTTP (the client may be on another machine) it points to the resource_link,
// which reads the report, and names no file:// URL, in the answer or in the
// report's links; over stdio the client is local and gets the file:// URL.
func TestAuditReportWhereTheClientIs(t *testing.T) {
	t.Parallel()
	for _, remote := range []bool{true, false} {
		s := New(Config{IsolateSessions: remote, Timeout: callTimeout, Caps: []string{"audit"}, Artifacts: t.TempDir()}, mgr)
		t.Cleanup(s.Close)
		c := newClient(t, s)
		if remote {
			c = taskClient(t, serveHTTP(t, s), asTenant("alice"))
		}
		mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/audit/a11y-bad.html")}))
		mustOK(t, callTool(t, c, "auditAccessibility", nil))
		req := mcp.CallToolRequest{}
		req.Params.Name = "auditReport"
		res, err := c.CallTool(testCtx(t), req)
		if err != nil || res.IsError || len(res.Content) == 0 {
			t.Fatalf("auditReport: %v %+v", err, res)
		}
		text := res.Content[0].(mcp.TextContent).Text
		report := readText(t, c, resourceLink(t, res.Content, ".html").URI)
		if !strings.Contains(report, "<h1>Audit report</h1>") {
			t.Errorf("the resource_link does not read the report: %.200s", report)
		}
		if remote && (strings.Contains(text, "file://") || !strings.Contains(text, "resource_link") || strings.Contains(report, "file://")) {
			t.Errorf("over HTTP the answer or the report names a file:// URL, or the answer does not point to the resource_link:\n%s", text)
		}
		if !remote && (!strings.Contains(text, "open it in a browser: file:///") || !strings.Contains(report, `href="file:///`)) {
			t.Errorf("over stdio the answer or the report lacks the file:// URL:\n%s", text)
		}
	}
}
