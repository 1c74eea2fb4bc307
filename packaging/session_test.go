package packaging_test

import (
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

var markers atomic.Int64

// session is an MCP client on a server it started over stdio, the way a
// client's config starts one (npx cdpmcp serve, a bundle's command).
type session struct {
	c      *client.Client
	cmd    *exec.Cmd
	stderr *syncBuffer
	marker string // a flag on the server's browser, to find it
}

// startSession starts command with args, in dir with env added, plus a marker
// flag for its browser, and initializes an MCP session. The client is closed
// (stdin closed, the process reaped) at cleanup.
func startSession(t *testing.T, ctx context.Context, dir string, env []string, command string, args ...string) *session {
	t.Helper()
	marker := fmt.Sprintf("--cdpmcp-test=packaging-%d-%d", os.Getpid(), markers.Add(1))
	s := &session{stderr: &syncBuffer{}, marker: marker}
	args = append(args, "--browser-arg="+s.marker)
	newCmd := func(_ context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
		cmd := exec.Command(command, args...)
		cmd.Dir = dir
		cmd.Env = env
		cmd.Stderr = s.stderr
		s.cmd = cmd
		return cmd, nil
	}
	c, err := client.NewStdioMCPClientWithOptions(command, nil, args, transport.WithCommandFunc(newCmd))
	if err != nil {
		t.Fatal(err)
	}
	s.c = c
	t.Cleanup(func() {
		_ = c.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "cdpmcp-packaging-test", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize: %v\nserver stderr:\n%s", err, s.stderr.String())
	}
	t.Logf("initialized %s %s over stdio", res.ServerInfo.Name, res.ServerInfo.Version)
	return s
}

// tools lists the session's tools by name.
func (s *session) tools(t *testing.T, ctx context.Context) []string {
	t.Helper()
	list, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// call calls a tool and returns its text and whether it is an error result.
func (s *session) call(t *testing.T, ctx context.Context, name string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError
}

// close closes stdin, the way a client ends the server, and waits until the
// server and its browser are gone.
func (s *session) close(t *testing.T) {
	t.Helper()
	if err := s.c.Close(); err != nil {
		t.Errorf("the server's exit after stdin closed: %v", err)
	}
	testbound.Until(t, "the server's browser ("+s.marker+") to end with it", func() bool {
		_, ok := fixtures.FindBrowser(s.marker)
		return !ok
	})
}

// assertStatic fails unless the ELF binary at path has no interpreter: it
// runs on any Linux, whatever its C library.
func assertStatic(t *testing.T, path string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s is dynamically linked (it has an interpreter); the release builds set CGO_ENABLED=0", path)
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
