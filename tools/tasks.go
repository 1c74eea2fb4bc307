package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The calls that can outlive a client's patience (MCP clients cut a call at
// about a minute) may run as MCP tasks (spec 2025-11-25): a client that
// sends "task" with tools/call gets a task id at once, polls tasks/get,
// reads the answer with tasks/result and may stop the call with
// tasks/cancel. A client that sends no task gets today's answer, at the end.
//
// mcp-go keeps a task (its state and answer) in this process's memory, for
// the session that made it, and runs the handler on the request's context,
// which ends as soon as the task id is answered (over HTTP). So the call is
// detached from that context here: it ends when it is done, when the client
// cancels the task, when the task's TTL runs out, when its session ends, or
// when the server shuts down. Where the work is a job (browser.job.wait),
// the task is one wait on it: the job, and its id, outlive the task, its
// session and the server, and a client that lost the task (a new session, a
// restart) waits again with the same jobId.

// taskToolNames are the tools a client may call as a task.
var taskToolNames = map[string]bool{agentToolName: true, jobWaitName: true, "auditLinks": true, "auditPerformance": true}

// stampKey marks, in a task-augmented call's _meta, which task it runs for.
const stampKey = "cdpmcp.dev/task-stamp"

// errTaskCancelled is why a task's work stopped when its client cancelled it.
var errTaskCancelled = errors.New("the client cancelled the task")

// taskRuns tracks the calls running as tasks.
type taskRuns struct {
	mu sync.Mutex
	// pending maps a task-augmented request's context (the same value
	// through mcp-go's hooks for one request) to the stamp put in its _meta;
	// ids maps a stamp to its task's id once mcp-go made the task.
	pending map[context.Context]string
	ids     map[string]string
	running map[string]*taskRun // by task id
}

// taskRun is a call running as a task.
type taskRun struct {
	session string
	cancel  context.CancelCauseFunc
}

// hook wires the runs into mcp-go's hooks.
func (t *taskRuns) hook(hooks *server.Hooks, taskHooks *server.TaskHooks) {
	t.pending, t.ids, t.running = map[context.Context]string{}, map[string]string{}, map[string]*taskRun{}
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest) {
		if req.Params.Task == nil {
			return
		}
		var b [12]byte
		_, _ = rand.Read(b[:])
		stamp := hex.EncodeToString(b[:])
		if req.Params.Meta == nil {
			req.Params.Meta = &mcp.Meta{}
		}
		if req.Params.Meta.AdditionalFields == nil {
			req.Params.Meta.AdditionalFields = map[string]any{}
		}
		req.Params.Meta.AdditionalFields[stampKey] = stamp
		t.mu.Lock()
		t.pending[ctx] = stamp
		t.mu.Unlock()
	})
	taskHooks.AddOnTaskCreated(func(ctx context.Context, m server.TaskMetrics) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if stamp, ok := t.pending[ctx]; ok {
			delete(t.pending, ctx)
			t.ids[stamp] = m.TaskID
		}
	})
	done := func(ctx context.Context) {
		t.mu.Lock()
		delete(t.pending, ctx) // no task was made (refused), or it was
		t.mu.Unlock()
	}
	hooks.AddAfterCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest, result any) {
		done(ctx)
		if ct, ok := result.(*mcp.CreateTaskResult); ok && req.Params.Name == jobWaitName {
			// What a client that loses the task (a new session, a restart)
			// does: the job outlives it.
			id, _ := req.GetArguments()["jobId"].(string)
			ct.Meta = mcp.WithModelImmediateResponse(fmt.Sprintf("waiting for job %s as task %s; poll tasks/get. If the task is lost (a new session, a server restart), call %s again with the same jobId: the job is kept.", id, ct.Task.TaskId, jobWaitName))
		}
	})
	hooks.AddOnError(func(ctx context.Context, _ any, method mcp.MCPMethod, _ any, _ error) {
		if method == mcp.MethodToolsCall {
			done(ctx)
		}
	})
	taskHooks.AddOnTaskCancelled(func(_ context.Context, m server.TaskMetrics) {
		t.stop(m.TaskID, errTaskCancelled)
	})
}

// detach returns the context a task-augmented call runs on: ctx's values
// without its end, cancelled by stop (tasks/cancel, the session's end) and
// by the task's TTL; release forgets the run.
func (t *taskRuns) detach(ctx context.Context, req mcp.CallToolRequest) (context.Context, func()) {
	stamp, _ := req.Params.Meta.AdditionalFields[stampKey].(string)
	t.mu.Lock()
	id := t.ids[stamp]
	delete(t.ids, stamp)
	t.mu.Unlock()
	wctx, cancel := context.WithCancelCause(context.WithValue(context.WithoutCancel(ctx), inTaskKey{}, true))
	if ttl := req.Params.Task.TTL; ttl != nil && *ttl > 0 {
		// mcp-go forgets the task then: nobody can read the answer.
		var stopTTL context.CancelFunc
		wctx, stopTTL = context.WithTimeoutCause(wctx, time.Duration(*ttl)*time.Millisecond, errors.New("the task's TTL ran out"))
		prev := cancel
		cancel = func(err error) { stopTTL(); prev(err) }
	}
	if id == "" {
		slog.Debug("a task-augmented call without its task id: tasks/cancel will not reach it", "tool", req.Params.Name)
		return wctx, func() { cancel(nil) }
	}
	session := ""
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		session = cs.SessionID()
	}
	t.mu.Lock()
	t.running[id] = &taskRun{session: session, cancel: cancel}
	t.mu.Unlock()
	slog.Debug("tool call running as a task", "tool", req.Params.Name, "task", id)
	return wctx, func() {
		t.mu.Lock()
		delete(t.running, id)
		t.mu.Unlock()
		cancel(nil)
	}
}

// stop cancels the run of task id, if it runs.
func (t *taskRuns) stop(id string, why error) {
	t.mu.Lock()
	r := t.running[id]
	t.mu.Unlock()
	if r != nil {
		r.cancel(why)
	}
}

// endSession stops the runs of a session that ended: nobody can read their
// answers.
func (t *taskRuns) endSession(session string) {
	t.mu.Lock()
	var runs []*taskRun
	for _, r := range t.running {
		if r.session == session {
			runs = append(runs, r)
		}
	}
	t.mu.Unlock()
	for _, r := range runs {
		r.cancel(errors.New("the task's session ended"))
	}
}

type inTaskKey struct{}

// inTask reports whether ctx is a call running as a task.
func inTask(ctx context.Context) bool { return ctx.Value(inTaskKey{}) != nil }
