package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// sampler is a client's own model answering from a script, keeping what it
// was asked.
type sampler struct {
	replies []string
	mu      sync.Mutex
	system  []string
	users   []string
	images  []int
}

func (s *sampler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.users)
	text, images := "", 0
	for _, m := range req.Messages {
		for _, part := range parts(m.Content) {
			switch p := part.(type) {
			case mcp.TextContent:
				text += p.Text
			case mcp.ImageContent:
				images++
			}
		}
	}
	s.system, s.users, s.images = append(s.system, req.SystemPrompt), append(s.users, text), append(s.images, images)
	if n >= len(s.replies) {
		return nil, fmt.Errorf("sampled %d times; the script has %d", n+1, len(s.replies))
	}
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(s.replies[n])}, Model: "client-model"}, nil
}

// parts lists a sampling message's content blocks, whatever shape they came in.
func parts(c any) []any {
	switch v := c.(type) {
	case []mcp.Content:
		out := make([]any, len(v))
		for i := range v {
			out[i] = v[i]
		}
		return out
	case []any:
		var out []any
		for _, x := range v {
			out = append(out, parts(x)...)
		}
		return out
	case map[string]any:
		if content, err := mcp.ParseContent(v); err == nil {
			return []any{content}
		}
	}
	return []any{c}
}

func (s *sampler) check(t *testing.T, images int) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.users) != 2 {
		t.Fatalf("sampled %d times, want 2", len(s.users))
	}
	for i := range s.users {
		if !strings.HasPrefix(s.system[i], "You are a precise browser automation agent") || !strings.Contains(s.system[i], "\nFunctions:\ngo_to_url: ") {
			t.Errorf("sampling %d: system prompt %.80q", i, s.system[i])
		}
		if !strings.HasPrefix(s.users[i], fmt.Sprintf("Current step: %d/5\n", i+1)) {
			t.Errorf("sampling %d: user message %.80q", i, s.users[i])
		}
		if s.images[i] != images {
			t.Errorf("sampling %d: %d images, want %d", i, s.images[i], images)
		}
	}
	if !strings.Contains(s.users[1], `Result of previous action 1/1: {"ok":true}`) || !strings.Contains(s.users[1], "4. Current url: "+site.URL("/home.html")) {
		t.Errorf("second prompt lacks the first step's result:\n%s", s.users[1])
	}
}

// The client's own model, in process: sampling within the request, with the
// screenshot.
func TestAgentOnClientModelInProcess(t *testing.T) {
	t.Parallel()
	smp := &sampler{replies: twoSteps()}
	c, err := client.NewInProcessClientWithSamplingHandler(agentServer(t, "", true).MCP(), smp)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	initClient(t, c)
	res, out := agentOutcome(t, testCtx(t), c, "Tell me the heading of the home page", false)
	checkDone(t, res, out)
	smp.check(t, 1)
}

// The client's own model over stdio, on protocol 2026-07-28: the run goes on
// across tools/call round trips (input_required with a sampling request).
func TestAgentOnClientModelOverStdio(t *testing.T) {
	t.Parallel()
	s := agentServer(t, "", false)
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	serveStdio(t, s, sr, sw)
	smp := &sampler{replies: twoSteps()}
	c := client.NewClient(transport.NewIO(cr, cw, io.NopCloser(strings.NewReader(""))), client.WithSamplingHandler(smp))
	t.Cleanup(func() { _ = c.Close() })
	initClient(t, c)
	if v := c.ProtocolVersion(); !mcp.IsModernProtocol(v) {
		t.Fatalf("stdio client speaks %s, want the multi-round-trip protocol", v)
	}
	var mu sync.Mutex
	progress := 0
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		mu.Lock()
		defer mu.Unlock()
		if n.Method == "notifications/progress" {
			progress++
		}
	})
	res, out := agentOutcome(t, testCtx(t), c, "Tell me the heading of the home page", true)
	checkDone(t, res, out)
	smp.check(t, 0)
	if n := eventually(func() any { mu.Lock(); defer mu.Unlock(); return progress }, 2); n != 2 {
		t.Errorf("%v progress notifications across the round trips, want 2", n)
	}
	if n := s.rounds.waiting(); n != 0 {
		t.Errorf("%d runs left waiting", n)
	}
}

// The client's own model over streamable HTTP on a session protocol:
// sampling requests reach the client on its listening stream.
func TestAgentOnClientModelOverHTTP(t *testing.T) {
	t.Parallel()
	s := agentServer(t, "", false)
	var legacy []string
	for _, v := range mcp.ValidProtocolVersions {
		if !mcp.IsModernProtocol(v) {
			legacy = append(legacy, v)
		}
	}
	hs := httptest.NewServer(server.NewStreamableHTTPServer(s.MCP(), server.WithStreamableHTTPProtocolVersions(legacy...)))
	t.Cleanup(hs.Close)
	//lint:ignore SA1019 a session-protocol client receives sampling requests on its GET stream; that is the case under test
	tr, err := transport.NewStreamableHTTP(hs.URL, transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	smp := &sampler{replies: twoSteps()}
	c := client.NewClient(tr, client.WithSamplingHandler(smp))
	t.Cleanup(func() { _ = c.Close() })
	initClient(t, c)
	res, out := agentOutcome(t, testCtx(t), c, "Tell me the heading of the home page", false)
	checkDone(t, res, out)
	smp.check(t, 0)
}

func initClient(t *testing.T, c *client.Client) {
	t.Helper()
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "agent-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
}

// A client that stops coming back (here: it allows one round trip) leaves no
// run behind: the run gives up on the model after the timeout (2 s, beyond a
// round trip's time on a busy machine) and ends.
func TestAgentRoundTripsAbandoned(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Agent: AgentConfig{
		LLM:  agentloop.OpenAI{Timeout: testbound.Scale(2 * time.Second)},
		Loop: agentloop.Config{MaxSteps: 5, RunDir: t.TempDir()},
	}}, mgr)
	t.Cleanup(s.Close)
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	serveStdio(t, s, sr, sw)
	smp := &sampler{replies: twoSteps()}
	c := client.NewClient(transport.NewIO(cr, cw, io.NopCloser(strings.NewReader(""))), client.WithSamplingHandler(smp), client.WithMaxInputRoundTrips(1))
	t.Cleanup(func() { _ = c.Close() })
	initClient(t, c)
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_browser_agent"
	req.Params.Arguments = map[string]any{"task": "open the home page"}
	if _, err := c.CallTool(testCtx(t), req); !errors.Is(err, client.ErrMaxInputRoundTripsExceeded) {
		t.Fatalf("call = %v, want the client's round-trip limit", err)
	}
	testbound.Until(t, "no run to wait for the client", func() bool { return s.rounds.waiting() == 0 })
}
