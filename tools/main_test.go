package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/cdpclient/webmcp"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// One browser, one fixtures server and one MCP server per test binary. Each test
// connects its own in-process client, which gets its own browser context.
var (
	site   *fixtures.Server
	srv    *Server
	mgr    *cdpclient.Manager
	marker = fmt.Sprintf("--cdpmcp-test=tools-%d", os.Getpid())
)

// The features' listeners and hooks are set up first, as cmd/cdpmcp does.
func TestMain(m *testing.M) { network.Register(); webmcp.Register(); input.Register(); os.Exit(run(m)) }

func run(m *testing.M) int {
	var err error
	if site, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer site.Close()
	mgr = cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{marker}}})
	srv = New(Config{IsolateSessions: true, Timeout: callTimeout}, mgr)
	code := m.Run()
	srv.Close()
	proc, found := fixtures.FindBrowser(marker)
	mgr.Close()
	if found && (procgroup.Alive(proc.PGID) || dirExists(proc.UserDataDir)) {
		fmt.Fprintln(os.Stderr, "leak: browser processes or profile left after Close", proc)
		return 1
	}
	return code
}

func dirExists(p string) bool { _, err := os.Stat(p); return err == nil }

// newClient connects an initialized in-process MCP client to srv (or to s).
func newClient(t *testing.T, servers ...*Server) *client.Client {
	t.Helper()
	s := srv
	if len(servers) > 0 {
		s = servers[0]
	}
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "tools-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

// callTimeout is the test servers' tool-call timeout (and their model's): twice
// the test bound, so a call that should end on its own is never ended by it,
// and a test's own bound runs out first.
var callTimeout = 2 * testbound.Bound()

func testCtx(t *testing.T) context.Context { return testbound.Context(t) }

// result is a tool call's text and error flag.
type result struct {
	text    string
	isError bool
	images  int
}

func callTool(t *testing.T, c *client.Client, name string, args map[string]any) result {
	t.Helper()
	return callToolCtx(t, testCtx(t), c, name, args)
}

func callToolCtx(t *testing.T, ctx context.Context, c *client.Client, name string, args map[string]any) result {
	t.Helper()
	r, err := callToolErr(ctx, c, name, args)
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	return r
}

// callToolErr calls a tool and returns a protocol error instead of failing.
func callToolErr(ctx context.Context, c *client.Client, name string, args map[string]any) (result, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return result{}, err
	}
	var r result
	r.isError = res.IsError
	for _, ct := range res.Content {
		switch v := ct.(type) {
		case mcp.TextContent:
			r.text += v.Text
		case mcp.ImageContent:
			r.images++
		}
	}
	return r, nil
}

// feedbackOf decodes an action's feedback JSON.
func feedbackOf(t *testing.T, r result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.text), &m); err != nil {
		t.Fatalf("not feedback JSON: %q", r.text)
	}
	return m
}

func mustOK(t *testing.T, r result) {
	t.Helper()
	if r.isError {
		t.Fatalf("tool failed: %s", r.text)
	}
}

// callToolRaw calls a tool that may not exist: an unknown tool is a protocol
// error, reported as an error result with its message.
func callToolRaw(t *testing.T, c *client.Client, name string, args map[string]any) result {
	t.Helper()
	r, err := callToolErr(testCtx(t), c, name, args)
	if err != nil {
		return result{text: err.Error(), isError: true}
	}
	return r
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
