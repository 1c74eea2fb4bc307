package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// agentToolName is seed 000's tool: a whole task in one call.
const agentToolName = "run_browser_agent"

// AgentConfig configures run_browser_agent.
type AgentConfig struct {
	// LLM is the OpenAI-compatible endpoint the agent asks. Without a BaseURL
	// the agent uses the client's own model through sampling, when offered.
	LLM agentloop.OpenAI
	// Loop holds the run's limits, vision and where records go.
	Loop agentloop.Config
}

// samplingTimeout bounds a wait for the client's model when --llm-timeout is
// not set: a person may have to approve each request.
const samplingTimeout = 5 * time.Minute

// agentOutputSchema names the fields every answer has; the others (stop,
// reason, runDir, report: docs/agent.md) come besides them. Kept short: tools/list is
// paid for by every request.
var agentOutputSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"result":{"type":"string"},"success":{"type":"boolean"},"steps":{"type":"integer"},"finalUrl":{"type":"string"}},` +
	`"required":["result","success","steps","finalUrl"]}`)

// agentTool is run_browser_agent, described as seed 000 §2.1 says.
func (s *Server) agentTool() toolDef {
	ro := s.cfg.ReadOnly
	tool := mcp.NewTool(agentToolName,
		mcp.WithDescription("Execute a browser automation task"),
		mcp.WithString("task", mcp.Required(), mcp.Description("The task to perform")),
		mcp.WithString("add_infos", mcp.Description("Additional information to help with the task")),
		mcp.WithRawOutputSchema(agentOutputSchema),
	)
	tool.Annotations = mcp.ToolAnnotation{
		ReadOnlyHint:    mcp.ToBoolPtr(ro),
		DestructiveHint: mcp.ToBoolPtr(!ro),
		IdempotentHint:  mcp.ToBoolPtr(false),
		OpenWorldHint:   mcp.ToBoolPtr(true),
	}
	return toolDef{tool: tool, run: s.runAgent, ownTimeout: true}
}

type agentArgs struct {
	Task     string `json:"task"`
	AddInfos string `json:"add_infos"`
}

// runAgent runs a task to its end: on the configured endpoint, on the
// client's model in this request, or (for clients on the multi-round-trip
// protocol) across several requests.
func (s *Server) runAgent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params.RequestState != "" {
		return s.rounds.resume(ctx, req, s)
	}
	raw, err := rawArguments(req)
	if err != nil {
		return nil, err
	}
	var a agentArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, &cdpclient.ArgError{Msg: "arguments: " + err.Error(), Hint: `for example {"task":"find the price of …"}`}
		}
	}
	if strings.TrimSpace(a.Task) == "" {
		return nil, &cdpclient.ArgError{Msg: `argument "task" is required`, Hint: `for example {"task":"open example.com and tell me its heading"}`}
	}
	task := agentloop.Task{Task: a.Task, AddInfos: a.AddInfos}
	cfg := s.cfg.Agent.Loop
	model, how := s.agentModel(ctx)
	switch how {
	case modelNone:
		return mcp.NewToolResultError(agentloop.ErrNoModel.Error()), nil
	case modelRoundTrips:
		return s.rounds.start(ctx, req, s, cfg, task)
	}
	var steps atomic.Int64 // steps done, for the handoff's progress
	onStep := s.progress(ctx, req)
	cfg.OnStep = func(st agentloop.StepInfo) {
		steps.Store(int64(st.Step))
		if onStep != nil {
			onStep(st)
		}
	}
	maxSteps := cfg.MaxSteps
	if maxSteps <= 0 {
		maxSteps = 30 // agentloop's default
	}
	cfg.AskHuman = s.askHuman(ctx, req, func() float64 { return float64(steps.Load()) + 0.5 }, maxSteps)
	out, err := agentloop.Run(ctx, s.envFor(ctx), model, cfg, task)
	return s.agentResult(ctx, out, err)
}

// agentResult renders a finished run: the result as text with a line saying
// how it ended and where its report is, and the outcome as structured content.
func (s *Server) agentResult(ctx context.Context, out *agentloop.Outcome, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		return errResult(ctx, err)
	}
	var b strings.Builder
	b.WriteString(out.Result)
	fmt.Fprintf(&b, "\n\n[success: %t; stop: %s; steps: %d; final URL: %s", out.Success, out.Stop, out.Steps, out.FinalURL)
	if out.Report != "" {
		fmt.Fprintf(&b, "; report: %s", out.Report)
	} else if out.RunDir != "" {
		fmt.Fprintf(&b, "; record: %s", out.RunDir)
	}
	if out.Script != "" {
		fmt.Fprintf(&b, "; script: %s", out.Script)
	}
	b.WriteString("]")
	res := mcp.NewToolResultStructured(out, b.String())
	// A run the model or the browser never let start is a failed call, not
	// an answer: the caller sees isError (and `cdpmcp call` exits non-zero).
	res.IsError = out.Stop == agentloop.StopModelError || out.Stop == agentloop.StopBrowser
	if out.Report != "" {
		res.Content = append(res.Content, s.links.offer(ctx, out.Report))
	}
	return res, nil
}

// progress returns the step callback that sends one progress notification a
// step, when the request asked for progress.
func (s *Server) progress(ctx context.Context, req mcp.CallToolRequest) func(agentloop.StepInfo) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	token := req.Params.Meta.ProgressToken
	return func(st agentloop.StepInfo) {
		err := s.notify(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": st.Step, "total": st.MaxSteps, "message": st.Message,
		})
		if err != nil {
			slog.Debug("agent progress", "err", err)
		}
	}
}

// How the agent reaches a model.
const (
	modelNone = iota
	modelEndpoint
	modelSampling   // sampling/createMessage within this request
	modelRoundTrips // input_required results, one round trip a step
)

// agentModel picks the model: the configured endpoint first, else the
// client's own model if it declared sampling.
func (s *Server) agentModel(ctx context.Context) (agentloop.Model, int) {
	if s.cfg.Agent.LLM.BaseURL != "" {
		llm := s.cfg.Agent.LLM
		return &llm, modelEndpoint
	}
	timeout := s.cfg.Agent.LLM.Timeout
	if timeout <= 0 {
		timeout = samplingTimeout
	}
	session := server.ClientSessionFromContext(ctx)
	_, inProcess := session.(*server.InProcessSession)
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern && !inProcess {
		if info.ClientCapabilities != nil && info.ClientCapabilities.Sampling != nil {
			return nil, modelRoundTrips
		}
		return nil, modelNone
	}
	if sc, ok := session.(server.SessionWithClientInfo); ok && sc.GetClientCapabilities().Sampling != nil {
		return &samplingModel{srv: s.mcp, timeout: timeout}, modelSampling
	}
	if server.InProcessSamplingHandlerFromContext(ctx) != nil {
		return &samplingModel{srv: s.mcp, timeout: timeout}, modelSampling
	}
	return nil, modelNone
}
