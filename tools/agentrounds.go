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

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// roundTrips holds agent runs on the client's model for clients on MCP
// 2026-07-28, where a server asks for sampling by answering tools/call with
// input_required and the client calls again with the model's answer. A run
// lives across those calls: it waits in its model call while the client's
// model thinks, and goes on when the answer comes back.
type roundTrips struct {
	mu   sync.Mutex
	runs map[string]*roundTripRun
}

// roundTripRun is one run between round trips.
type roundTripRun struct {
	id      string
	asks    chan *sampleAsk // the run's model calls, handed to a request
	done    chan runEnd
	cancel  context.CancelFunc
	timeout time.Duration

	mu       sync.Mutex
	pending  *sampleAsk               // the ask the client is answering
	progress func(agentloop.StepInfo) // the current request's progress
	n        int
}

type sampleAsk struct {
	key    string
	params mcp.CreateMessageParams
	reply  chan sampleReply
}

type sampleReply struct {
	res *mcp.CreateMessageResult
	err error
}

type runEnd struct {
	out *agentloop.Outcome
	err error
}

func (rt *roundTrips) add(r *roundTripRun) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.runs == nil {
		rt.runs = map[string]*roundTripRun{}
	}
	rt.runs[r.id] = r
}

func (rt *roundTrips) get(id string) *roundTripRun {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.runs[id]
}

// waiting counts the runs between round trips.
func (rt *roundTrips) waiting() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return len(rt.runs)
}

func (rt *roundTrips) remove(id string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	delete(rt.runs, id)
}

// start begins a run that outlives this request (it keeps the request's
// session, so it acts in the caller's browser context) and answers with its
// first model request, or its end.
func (rt *roundTrips) start(ctx context.Context, req mcp.CallToolRequest, s *Server, cfg agentloop.Config, task agentloop.Task) (*mcp.CallToolResult, error) {
	var id [16]byte
	_, _ = rand.Read(id[:])
	timeout := s.cfg.Agent.LLM.Timeout
	if timeout <= 0 {
		timeout = samplingTimeout
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r := &roundTripRun{id: hex.EncodeToString(id[:]), asks: make(chan *sampleAsk), done: make(chan runEnd, 1), cancel: cancel, timeout: timeout}
	rt.add(r)
	cfg.OnStep = func(st agentloop.StepInfo) {
		r.mu.Lock()
		p := r.progress
		r.mu.Unlock()
		if p != nil {
			p(st)
		}
	}
	go func() {
		out, err := agentloop.Run(runCtx, s.envFor(runCtx), r, cfg, task)
		cancel()
		rt.remove(r.id)
		r.done <- runEnd{out, err}
	}()
	return r.await(ctx, req, s)
}

// resume hands the client's answer to the run it belongs to and waits for the
// run's next model request or its end.
func (rt *roundTrips) resume(ctx context.Context, req mcp.CallToolRequest, s *Server) (*mcp.CallToolResult, error) {
	r := rt.get(req.Params.RequestState)
	if r == nil {
		return mcp.NewToolResultError("this agent run is no longer known: it ended, timed out waiting for the model's answer, or the server restarted. Call run_browser_agent again."), nil
	}
	r.mu.Lock()
	ask := r.pending
	r.pending = nil
	// The run goes on as soon as it has the answer: its steps report to this
	// request from then on.
	r.progress = s.progress(ctx, req)
	r.mu.Unlock()
	if ask == nil {
		return mcp.NewToolResultError("this agent run is not waiting for a model answer"), nil
	}
	if res := server.SamplingResponse(req.Params.InputResponses, ask.key); res != nil {
		ask.reply <- sampleReply{res: res}
	} else {
		ask.reply <- sampleReply{err: fmt.Errorf("the client answered without the sampling result %q", ask.key)}
	}
	return r.await(ctx, req, s)
}

// await waits for the run's next model request (answered as input_required,
// the run's id as the request state) or its end. Steps run meanwhile report
// progress to this request. A cancelled request cancels the run.
func (r *roundTripRun) await(ctx context.Context, req mcp.CallToolRequest, s *Server) (*mcp.CallToolResult, error) {
	r.mu.Lock()
	r.progress = s.progress(ctx, req)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.progress = nil
		r.mu.Unlock()
	}()
	select {
	case ask := <-r.asks:
		r.mu.Lock()
		r.pending = ask
		r.mu.Unlock()
		return server.NewInputRequestBuilder(r.id).Sample(ask.key, ask.params).ToolResult(), nil
	case end := <-r.done:
		return s.agentResult(ctx, end.out, end.err)
	case <-ctx.Done():
		r.cancel()
		<-r.done // the run stops at once: its model call is waiting on its context
		return nil, ctx.Err()
	}
}

var errNoAnswer = errors.New("the client did not come back with the model's answer")

// Complete hands the prompt to the current request as an input request and
// waits for the client to call again with the answer, at most the timeout.
func (r *roundTripRun) Complete(ctx context.Context, p agentloop.Prompt) (*agentloop.Answer, error) {
	r.mu.Lock()
	r.n++
	ask := &sampleAsk{key: fmt.Sprintf("step-%d", r.n), params: samplingParams(p), reply: make(chan sampleReply, 1)}
	r.mu.Unlock()
	tctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	select {
	case r.asks <- ask:
	case <-tctx.Done():
		return nil, r.waitErr(ctx, tctx)
	}
	select {
	case rep := <-ask.reply:
		if rep.err != nil {
			return nil, &agentloop.ModelError{Provider: samplingProvider, Attempts: 1, Err: rep.err}
		}
		return samplingAnswer(rep.res)
	case <-tctx.Done():
		return nil, r.waitErr(ctx, tctx)
	}
}

func (r *roundTripRun) waitErr(ctx, tctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	slog.Debug("agent run abandoned: no answer from the client", "run", r.id)
	return &agentloop.ModelError{Provider: samplingProvider, Attempts: 1, Err: fmt.Errorf("%w within %s", errNoAnswer, r.timeout)}
}
