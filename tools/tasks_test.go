package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// gatedChat is an OpenAI-compatible endpoint whose every answer waits for
// the test to let it go (release): a model as slow as the test says, with no
// clock in it. A request whose caller left is signalled on gone.
type gatedChat struct {
	srv     *httptest.Server
	asked   atomic.Int64
	release chan struct{}
	gone    chan struct{}
}

func newGatedChat(t *testing.T, replies ...string) *gatedChat {
	g := &gatedChat{release: make(chan struct{}, len(replies)), gone: make(chan struct{}, 10)}
	var mu sync.Mutex
	next := 0
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // then the server hears when the caller leaves
		g.asked.Add(1)
		select {
		case <-g.release:
		case <-r.Context().Done():
			g.gone <- struct{}{}
			return
		}
		mu.Lock()
		reply := replies[min(next, len(replies)-1)]
		next++
		mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": reply}}}})
	}))
	t.Cleanup(g.srv.Close)
	return g
}

// waitAsked waits until the model has been asked n times.
func (g *gatedChat) waitAsked(t *testing.T, n int64) {
	t.Helper()
	testbound.Until(t, "the model to be asked", func() bool { return g.asked.Load() >= n })
}

// serveHTTP serves s over streamable HTTP as cdpmcp serve --http does (the
// protocol versions that have sessions) and returns the /mcp URL.
func serveHTTP(t *testing.T, s *Server) string {
	t.Helper()
	var versions []string
	for _, v := range mcp.ValidProtocolVersions {
		if !mcp.IsModernProtocol(v) {
			versions = append(versions, v)
		}
	}
	h := server.NewStreamableHTTPServer(s.MCP(), server.WithEndpointPath("/mcp"), server.WithStreamableHTTPProtocolVersions(versions...))
	// A request acts for the tenant its X-Test-Tenant header names, as one
	// acts for its bearer token's under cdpmcp serve (cmd's guard).
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(tenant.With(r.Context(), r.Header.Get("X-Test-Tenant"))))
	}))
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

// asTenant makes a test client's requests act for tenant who (the test
// server's X-Test-Tenant header).
func asTenant(who string) transport.StreamableHTTPCOption {
	return transport.WithHTTPHeaders(map[string]string{"X-Test-Tenant": who})
}

// taskClient is an mcp-go client over HTTP that says it can run tool calls
// as tasks.
func taskClient(t *testing.T, url string, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "tasks-test", Version: "1"}
	init.Params.Capabilities.Tasks = &mcp.TasksCapability{List: &struct{}{}, Cancel: &struct{}{}}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

// callAsTask sends tools/call with a task through the client's transport
// (mcp-go's client has no call for it) and returns the task it made.
func callAsTask(t *testing.T, ctx context.Context, c *client.Client, name string, args map[string]any) mcp.Task {
	t.Helper()
	return createTask(t, ctx, c, name, args).Task
}

// createTask is callAsTask's whole answer.
func createTask(t *testing.T, ctx context.Context, c *client.Client, name string, args map[string]any) mcp.CreateTaskResult {
	t.Helper()
	resp, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(time.Now().UnixNano())),
		Method: string(mcp.MethodToolsCall), Params: map[string]any{"name": name, "arguments": args, "task": map[string]any{}}})
	if err != nil {
		t.Fatalf("tools/call %s as a task: %v", name, err)
	}
	if resp.Error != nil {
		t.Fatalf("tools/call %s as a task: %s", name, resp.Error.Message)
	}
	var created mcp.CreateTaskResult
	if err := json.Unmarshal(resp.Result, &created); err != nil || created.Task.TaskId == "" {
		t.Fatalf("tools/call %s as a task answered %s: %v", name, resp.Result, err)
	}
	return created
}

// pollTask polls a task until it is in a terminal state, each request
// within patience.
func pollTask(t *testing.T, c *client.Client, id string, patience time.Duration) *mcp.GetTaskResult {
	t.Helper()
	var got *mcp.GetTaskResult
	testbound.UntilNil(t, "task "+id+" to end", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		var err error
		if got, err = c.GetTask(ctx, mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: id}}); err != nil {
			return err
		}
		if !got.Status.IsTerminal() {
			return errors.New(string(got.Status))
		}
		return nil
	})
	return got
}

// run_browser_agent against a model slower than the client's patience: a
// client that runs the call as a task gets the task at once, polls it (every
// request answered well within its patience), reads the answer and the run's
// report through resources/read, and can reach the task from a new
// connection of its session; another tenant can do neither. A plain client gets
// today's behaviour: its call outlasts its patience, it gives up, and the
// run stops. A task the client cancels stops its run.
func TestRunBrowserAgentAsATask(t *testing.T) {
	t.Parallel()
	patience := testbound.Scale(5 * time.Second)
	chat := newGatedChat(t, twoSteps()...)
	s := agentServer(t, chat.srv.URL+"/v1", false)
	url := serveHTTP(t, s)
	c := taskClient(t, url)
	list, err := c.ListTools(testCtx(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == agentToolName && (tool.Execution == nil || tool.Execution.TaskSupport != mcp.TaskSupportOptional) {
			t.Errorf("run_browser_agent does not say it may run as a task: %+v", tool.Execution)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	task := callAsTask(t, ctx, c, agentToolName, map[string]any{"task": "Tell me the heading of the home page"})
	cancel()
	// The model is asked while the call's request is long answered.
	chat.waitAsked(t, 1)
	got, err := c.GetTask(testCtx(t), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: task.TaskId}})
	if err != nil || got.Status != mcp.TaskStatusWorking {
		t.Fatalf("tasks/get while the model thinks: %+v %v", got, err)
	}
	// A new connection of the same session (a client that reconnected)
	// reaches the task; another tenant's session does not.
	again, err := transport.NewStreamableHTTP(url, transport.WithSession(c.GetSessionId()))
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Start(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	resp, err := again.SendRequest(testCtx(t), transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(1)),
		Method: string(mcp.MethodTasksGet), Params: map[string]any{"taskId": task.TaskId}})
	if err != nil || resp.Error != nil || !strings.Contains(string(resp.Result), `"working"`) {
		t.Errorf("tasks/get from a new connection of the session: %v %+v", err, resp)
	}
	other := taskClient(t, url, transport.WithHTTPHeaders(map[string]string{"X-Test-Tenant": "bob"}))
	if _, err := other.GetTask(testCtx(t), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: task.TaskId}}); err == nil {
		t.Error("another session reads the task")
	}
	chat.release <- struct{}{}
	chat.release <- struct{}{}
	if got := pollTask(t, c, task.TaskId, patience); got.Status != mcp.TaskStatusCompleted {
		t.Fatalf("the task ended %s: %s", got.Status, got.StatusMessage)
	}
	res, err := c.TaskResult(testCtx(t), mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: task.TaskId}})
	if err != nil {
		t.Fatal(err)
	}
	var out agentloop.Outcome
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &out)
	if res.IsError || !out.Success || out.Steps != 2 || out.Result != "The heading is Fixtures." {
		t.Errorf("the task's answer: %+v %s", out, b)
	}
	link := resourceLink(t, res.Content, "report.html")
	if html := readText(t, c, link.URI); !strings.Contains(html, "Fixtures") {
		t.Errorf("the report read through resources/read: %.200s", html)
	}
	if _, err := other.ReadResource(testCtx(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: link.URI}}); err == nil || !strings.Contains(err.Error(), "resource not found") {
		t.Errorf("another tenant reads the report's link: %v", err)
	}

	// A plain client: it gives up while the model thinks; the run stops.
	// (It gives up once the model was asked: on a loaded machine a fixed
	// patience could run out before the run reached the model.)
	plainChat := newGatedChat(t, twoSteps()...)
	plain := taskClient(t, serveHTTP(t, agentServer(t, plainChat.srv.URL+"/v1", false)))
	pctx, pcancel := context.WithCancel(context.Background())
	defer pcancel()
	answered := make(chan error, 1)
	go func() {
		res, err := plain.CallTool(pctx, agentCall("Tell me the heading of the home page"))
		if err == nil {
			err = fmt.Errorf("answered %+v", res)
		}
		answered <- err
	}()
	plainChat.waitAsked(t, 1)
	pcancel()
	if err := <-answered; pctx.Err() == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("a plain call its client gave up on: %v, want the client's own cancel", err)
	}
	select {
	case <-plainChat.gone:
	case <-time.After(testbound.Bound()):
		t.Error("the plain call's run went on after its client gave up")
	}

	// A task the client cancels stops its run.
	hang := newGatedChat(t, twoSteps()...)
	hs := agentServer(t, hang.srv.URL+"/v1", false)
	hc := taskClient(t, serveHTTP(t, hs))
	ht := callAsTask(t, testCtx(t), hc, agentToolName, map[string]any{"task": "wait for ever"})
	hang.waitAsked(t, 1)
	if res, err := hc.CancelTask(testCtx(t), mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: ht.TaskId}}); err != nil || res.Status != mcp.TaskStatusCancelled {
		t.Errorf("tasks/cancel: %+v %v", res, err)
	}
	select {
	case <-hang.gone:
	case <-time.After(testbound.Bound()):
		t.Error("the cancelled task's run went on")
	}
}

// agentCall is a run_browser_agent call.
func agentCall(task string) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = agentToolName, map[string]any{"task": task}
	return req
}

// resourceLink finds the resource_link among contents whose name ends in suffix.
func resourceLink(t *testing.T, contents []mcp.Content, suffix string) mcp.ResourceLink {
	t.Helper()
	for _, c := range contents {
		if l, ok := c.(mcp.ResourceLink); ok && strings.HasSuffix(l.Name, suffix) {
			return l
		}
	}
	t.Fatalf("no resource_link named *%s among %d contents", suffix, len(contents))
	return mcp.ResourceLink{}
}

// readText reads a text resource.
func readText(t *testing.T, c *client.Client, uri string) string {
	t.Helper()
	res, err := c.ReadResource(testCtx(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	if !ok {
		t.Fatalf("resources/read %s: %T, want text", uri, res.Contents[0])
	}
	return tc.Text
}
