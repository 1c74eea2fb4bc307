package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// agentAnswer is a model answer in seed 000's format.
func agentAnswer(summary string, actions ...string) string {
	return `{"current_state": {"prev_action_evaluation": "Success", "important_contents": "", "task_progress": "", "future_plans": "", "thought": "", "summary": "` +
		summary + `"}, "action": [` + strings.Join(actions, ",") + `]}`
}

// twoSteps opens the home fixture, then reports its heading.
func twoSteps() []string {
	return []string{
		agentAnswer("open the page", `{"go_to_url": {"url": "`+site.URL("/home.html")+`"}}`),
		agentAnswer("report", `{"done": {"result": "The heading is Fixtures."}}`),
	}
}

// chatServer is an OpenAI-compatible endpoint answering from a script. A reply
// "hang" never comes; the request's end is signalled on gone.
type chatServer struct {
	srv     *httptest.Server
	replies []string
	mu      sync.Mutex
	users   []string
	gone    chan struct{}
}

func newChatServer(t *testing.T, replies ...string) *chatServer {
	cs := &chatServer{replies: replies, gone: make(chan struct{}, 10)}
	cs.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) != 2 {
			t.Errorf("chat request %s: %v", body, err)
		}
		cs.mu.Lock()
		n := len(cs.users)
		cs.users = append(cs.users, string(req.Messages[1].Content))
		cs.mu.Unlock()
		if n >= len(cs.replies) {
			t.Errorf("model asked %d times; the script has %d replies", n+1, len(cs.replies))
			http.Error(w, "script exhausted", http.StatusBadRequest)
			return
		}
		if cs.replies[n] == "hang" {
			<-r.Context().Done()
			cs.gone <- struct{}{}
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": cs.replies[n]}}}})
	}))
	t.Cleanup(cs.srv.Close)
	return cs
}

func (cs *chatServer) count() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.users)
}

// agentServer is a server whose agent asks base (the client's model when "").
func agentServer(t *testing.T, base string, vision bool) *Server {
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Agent: AgentConfig{
		LLM:  agentloop.OpenAI{BaseURL: base, Timeout: callTimeout},
		Loop: agentloop.Config{MaxSteps: 5, Vision: vision, RunDir: t.TempDir()},
	}}, mgr)
	t.Cleanup(s.Close)
	return s
}

// agentOutcome calls run_browser_agent and decodes its structured answer.
func agentOutcome(t *testing.T, ctx context.Context, c *client.Client, task string, progress bool) (*mcp.CallToolResult, agentloop.Outcome) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_browser_agent"
	req.Params.Arguments = map[string]any{"task": task}
	if progress {
		req.Params.Meta = &mcp.Meta{ProgressToken: "run-1"}
	}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("run_browser_agent: %v", err)
	}
	var out agentloop.Outcome
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
	}
	return res, out
}

func checkDone(t *testing.T, res *mcp.CallToolResult, out agentloop.Outcome) {
	t.Helper()
	text := mcp.GetTextFromContent(res.Content[0])
	if res.IsError || !out.Success || out.Steps != 2 || out.Stop != "done" || out.FinalURL != site.URL("/home.html") || out.Result != "The heading is Fixtures." {
		t.Errorf("outcome %+v, text %q", out, text)
	}
	if !strings.HasPrefix(text, "The heading is Fixtures.\n\n[success: true; stop: done; steps: 2; final URL: "+site.URL("/home.html")+"; report: ") ||
		!strings.Contains(text, out.Report) || out.Report == "" {
		t.Errorf("text %q does not give the result and the report %q", text, out.Report)
	}
}

// Without an endpoint and without a client model there is no model: the tool
// says how to give it one.
func TestAgentWithoutModel(t *testing.T) {
	t.Parallel()
	c := newClient(t, agentServer(t, "", false))
	res, _ := agentOutcome(t, testCtx(t), c, "open example.com", false)
	if text := mcp.GetTextFromContent(res.Content[0]); !res.IsError || !strings.Contains(text, "--llm-base-url") {
		t.Errorf("run without a model: %+v %q", res.IsError, text)
	}
	if r := callTool(t, c, "run_browser_agent", map[string]any{"add_infos": "x"}); !r.isError || !strings.Contains(r.text, `"task" is required`) {
		t.Errorf("run without a task: %+v", r)
	}
}

// With an endpoint: the run's result as text and structured content, and one
// progress notification a step.
func TestAgentOnEndpoint(t *testing.T) {
	t.Parallel()
	chat := newChatServer(t, twoSteps()...)
	s := agentServer(t, chat.srv.URL+"/v1", false)
	c := newClient(t, s)
	var mu sync.Mutex
	var progress []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			progress = append(progress, fmt.Sprint(n.Params.AdditionalFields["progress"], " ", n.Params.AdditionalFields["message"]))
			mu.Unlock()
		}
	})
	res, out := agentOutcome(t, testCtx(t), c, "Tell me the heading of the home page", true)
	checkDone(t, res, out)
	want := []string{"1 step 1/5: open the page", "2 step 2/5: report"}
	got := eventually(func() any { mu.Lock(); defer mu.Unlock(); return fmt.Sprint(progress) }, fmt.Sprint(want))
	if got != fmt.Sprint(want) {
		t.Errorf("progress %s, want %s", got, fmt.Sprint(want))
	}
}

// Cancelling the MCP request aborts the model call in flight (which only the
// model timeout, beyond the test bound, would end) and starts no other.
func TestAgentCancelAbortsModelCall(t *testing.T) {
	t.Parallel()
	chat := newChatServer(t, "hang")
	c := newClient(t, agentServer(t, chat.srv.URL+"/v1", false))
	ctx, cancel := context.WithCancel(testCtx(t))
	go func() {
		for chat.count() == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_browser_agent"
	req.Params.Arguments = map[string]any{"task": "wait"}
	if _, err := c.CallTool(ctx, req); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("cancelled call: %v", err)
	}
	select {
	case <-chat.gone:
	case <-time.After(testbound.Bound()):
		t.Fatal("the model call went on after the cancel")
	}
	time.Sleep(200 * time.Millisecond)
	if n := chat.count(); n != 1 {
		t.Errorf("model asked %d times, want 1", n)
	}
}

// eventually polls get within the test bound until it returns want (client
// notifications arrive on their own goroutine, after the call may return),
// and returns the last value.
func eventually(get func() any, want any) any {
	got := get()
	for deadline := time.Now().Add(testbound.Bound()); got != want && time.Now().Before(deadline); got = get() {
		time.Sleep(10 * time.Millisecond)
	}
	return got
}
