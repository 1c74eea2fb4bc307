package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/spans"
	"github.com/mark3labs/mcp-go/mcp"
)

// toolDef is one MCP tool: its definition and its handler.
type toolDef struct {
	tool mcp.Tool
	run  func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)
	// ownTimeout tools set their own deadline from a timeoutMs argument.
	ownTimeout bool
}

// catalogue returns the tools this configuration offers, in a stable order:
// the action catalogue rendered as MCP tools.
func (s *Server) catalogue() []toolDef {
	var out []toolDef
	for _, a := range actions.All() {
		if a.AllowedIn(s.cfg.ReadOnly) && s.offers(a.Name, a.Group) {
			out = append(out, s.actionTool(a))
		}
	}
	if s.offers(agentToolName, "") {
		out = append(out, s.agentTool())
	}
	for _, t := range s.jobTools() {
		if s.offers(t.tool.Name, CapJobs) {
			out = append(out, t)
		}
	}
	for i := range out {
		if taskToolNames[out[i].tool.Name] {
			out[i].tool.Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
		}
	}
	return out
}

// ToolNames lists every tool name the server knows, for validating --tools.
func ToolNames() []string { return append(append(actions.Names(), agentToolName), jobToolNames...) }

// fileTools write files: besides their text they answer the files as data
// (structuredContent {"files":[{uri, path, mimeType}]}, with an outputSchema)
// and as resource_links (resources.go). The other tools answer feedback JSON
// or text for a model; an outputSchema on every feedback tool does not fit
// the default tools/list's budget (docs/capabilities.md#output-schemas).
var fileTools = map[string]bool{"auditAccessibility": true, "auditSecurity": true, "auditPerformance": true, "auditLinks": true,
	"auditReport": true, "record": true, "pdf": true}

// filesOutputSchema is the fileTools' outputSchema.
var filesOutputSchema = json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"object",` +
	`"properties":{"uri":{"type":"string"},"path":{"type":"string"},"mimeType":{"type":"string"}}}}},"required":["files"]}`)

// actionTool renders one action as an MCP tool.
func (s *Server) actionTool(a *actions.Action) toolDef {
	ro := s.cfg.ReadOnly
	h := a.Hints(ro)
	tool := mcp.NewToolWithRawSchema(a.Name, a.Description(ro), a.Schema())
	if fileTools[a.Name] {
		tool.RawOutputSchema = filesOutputSchema
	}
	tool.Annotations = mcp.ToolAnnotation{
		ReadOnlyHint:    mcp.ToBoolPtr(h.ReadOnly),
		DestructiveHint: mcp.ToBoolPtr(h.Destructive),
		IdempotentHint:  mcp.ToBoolPtr(h.Idempotent),
		OpenWorldHint:   mcp.ToBoolPtr(h.OpenWorld),
	}
	return toolDef{
		tool:       tool,
		ownTimeout: a.OwnTimeout,
		run: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			raw, err := rawArguments(req)
			if err != nil {
				return nil, err
			}
			res, err := a.Run(s.withProgress(ctx, req), s.envFor(ctx), raw)
			if err != nil {
				return nil, err
			}
			endEncode := spans.Start(ctx, "encode")
			defer endEncode()
			out := toolResult(res)
			files := []map[string]string{}
			for _, f := range res.Files {
				l := s.links.offer(ctx, f)
				out.Content = append(out.Content, l)
				files = append(files, map[string]string{"uri": l.URI, "path": f, "mimeType": l.MIMEType})
			}
			if fileTools[a.Name] && !out.IsError {
				out.StructuredContent = map[string]any{"files": files}
			}
			return out, nil
		},
	}
}

// toolResult renders an action's answer: text first, then the feedback JSON (a
// failed action is an error result so clients notice), then an image.
func toolResult(r *actions.Result) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	if r.Text != "" || (r.Feedback == nil && r.Image == nil) {
		res.Content = append(res.Content, mcp.NewTextContent(r.Text))
	}
	if r.Feedback != nil {
		res.Content = append(res.Content, mcp.NewTextContent(r.Feedback.JSON()))
		res.IsError = !r.Feedback.OK
	}
	if r.Image != nil {
		res.Content = append(res.Content, mcp.NewImageContent(base64.StdEncoding.EncodeToString(r.Image.Data), r.Image.MIME))
	}
	return res
}

// wrap applies the call deadline and logs the call.
func (s *Server) wrap(t toolDef) func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		if req.Params.Task != nil {
			// The call outlives its request: tasks.go.
			var release func()
			ctx, release = s.tasks.detach(ctx, req)
			defer release()
		}
		var rec *spans.Recorder
		if s.cfg.Trace != nil || slog.Default().Enabled(ctx, slog.LevelDebug) {
			rec = spans.New()
			ctx = spans.With(ctx, rec)
		}
		ctx, leave, closing := s.drain.enter(ctx)
		if closing != nil {
			return shutdownResult(closing, false), nil
		}
		defer leave()
		if !t.ownTimeout {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
			defer cancel()
		}
		res, err := t.run(ctx, req)
		if err != nil {
			res, err = errResult(ctx, err)
		}
		if sd := stoppedByShutdown(ctx); sd != nil && (err != nil || res == nil || res.IsError) {
			res, err = shutdownResult(sd, true), nil
		} else if stoppedBySessionEnd(ctx) && (err != nil || res == nil || res.IsError) {
			res, err = sessionEndedResult(), nil
		}
		if note := s.sessions.takeNote(ctx); note != "" && res != nil {
			res.Content = append([]mcp.Content{mcp.NewTextContent(note)}, res.Content...)
		}
		endRedact := spans.Start(ctx, "redact")
		redact(s.secretsFor(ctx), res)
		endRedact()
		if rec == nil {
			return res, err
		}
		encoded(rec, res)
		phases, listed := rec.Ms(), rec.String() // before the call's time, which holds them
		ms := time.Since(start).Milliseconds()
		slog.Debug("tool call", "tool", t.tool.Name, "ms", ms, "isError", res != nil && res.IsError, "err", err, "phases", listed)
		if s.cfg.Trace != nil {
			tt := traceOf(t.tool.Name, req, res, ms)
			tt.Phases = phases
			s.cfg.Trace(tt)
		}
		return res, err
	}
}

func traceOf(name string, req mcp.CallToolRequest, res *mcp.CallToolResult, ms int64) ToolTrace {
	tt := ToolTrace{Tool: name, Args: req.Params.RawArguments, Ms: ms}
	if res == nil {
		return tt
	}
	tt.IsError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			tt.Result += tc.Text
		} else if ic, ok := c.(mcp.ImageContent); ok {
			tt.Result += "[" + ic.MIMEType + " image]"
		}
	}
	if len(tt.Result) > 2000 {
		tt.Result = tt.Result[:secrets.Cut(tt.Result, 2000)] + "…"
	}
	return tt
}

// encoded adds, as the phase "encode", the time the MCP layer takes to encode
// the result as JSON once the handler returns: measured here on a copy, since
// that happens after the call's record is written.
func encoded(rec *spans.Recorder, res *mcp.CallToolResult) {
	if res == nil {
		return
	}
	start := time.Now()
	_, _ = json.Marshal(res)
	rec.Add("encode", time.Since(start))
}
