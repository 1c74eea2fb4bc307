package tools

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"slices"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mark3labs/mcp-go/mcp"
)

// toolDef is one tool: its MCP definition, its handler and its policy.
type toolDef struct {
	tool mcp.Tool
	run  func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)
	// readOnly tools are offered in --read-only mode.
	readOnly bool
	// ownTimeout tools set their own deadline from a timeoutMs argument.
	ownTimeout bool
}

// catalogue returns the tools this configuration offers, in a stable order.
func (s *Server) catalogue() []toolDef {
	all := [][]toolDef{
		s.navTools(), s.snapshotTools(), s.inputTools(), s.waitTools(), s.readTools(), s.pageTools(), s.logTools(), s.rawTools(),
		s.jobTools(),
	}
	var out []toolDef
	for _, group := range all {
		for _, t := range group {
			if s.cfg.ReadOnly && !t.readOnly {
				continue
			}
			if len(s.cfg.Tools) > 0 && !slices.Contains(s.cfg.Tools, t.tool.Name) {
				continue
			}
			out = append(out, t)
		}
	}
	return out
}

// ToolNames lists every tool name the server knows, for validating --tools.
func ToolNames() []string {
	s := &Server{cfg: Config{}}
	var names []string
	for _, t := range s.catalogue() {
		names = append(names, t.tool.Name)
	}
	return append(names, jobToolNames...)
}

// wrap applies the call deadline and logs the call.
func (s *Server) wrap(t toolDef) func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		if !t.ownTimeout {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
			defer cancel()
		}
		res, err := t.run(ctx, req)
		if err != nil {
			res, err = errResult(ctx, err)
		}
		if note := s.sessions.takeNote(ctx); note != "" && res != nil {
			res.Content = append([]mcp.Content{mcp.NewTextContent(note)}, res.Content...)
		}
		ms := time.Since(start).Milliseconds()
		slog.Debug("tool call", "tool", t.tool.Name, "ms", ms, "isError", res != nil && res.IsError, "err", err)
		if s.cfg.Trace != nil {
			s.cfg.Trace(traceOf(t.tool.Name, req, res, ms))
		}
		return res, err
	}
}

// hints sets all four MCP annotation hints explicitly.
func hints(readOnly, destructive, idempotent, openWorld bool) mcp.ToolOption {
	return mcp.WithToolAnnotation(mcp.ToolAnnotation{
		ReadOnlyHint:    mcp.ToBoolPtr(readOnly),
		DestructiveHint: mcp.ToBoolPtr(destructive),
		IdempotentHint:  mcp.ToBoolPtr(idempotent),
		OpenWorldHint:   mcp.ToBoolPtr(openWorld),
	})
}

// Shared argument schemas.
// The shared arguments are explained once, in the server instructions, rather
// than in every tool's schema: tools/list is paid for on every request.
func pageArg() mcp.ToolOption { return mcp.WithString("page") }

func refArg() mcp.ToolOption { return mcp.WithString("ref") }

func selectorArg() mcp.ToolOption { return mcp.WithString("selector") }

// targetArgs are the element arguments of interaction tools.
type targetArgs struct {
	Ref      refValue `json:"ref"`
	Selector string   `json:"selector"`
}

func (a targetArgs) target() cdpclient.Target {
	return cdpclient.Target{Ref: string(a.Ref), Selector: a.Selector}
}

// refValue is a ref as clients send it: "12" or 12.
type refValue string

// UnmarshalJSON accepts a string or a whole number.
func (r *refValue) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*r = refValue(n.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: reflect.TypeFor[string](), Field: "ref"}
	}
	*r = refValue(s)
	return nil
}

// requireTarget reports a missing element target.
func (a targetArgs) require() error {
	if a.Ref == "" && a.Selector == "" {
		return badArg("take a snapshot and pass the element's number as ref, e.g. {\"ref\":\"12\"}", "pass ref or selector to name the element")
	}
	return nil
}

// page returns the page a call names (or the current one) in the caller's context.
func (s *Server) page(ctx context.Context, id string) (*cdpclient.Page, error) {
	bc, err := s.sessions.context(ctx)
	if err != nil {
		return nil, err
	}
	return bc.Page(ctx, id)
}

// act runs an action on a page and answers with its feedback.
func (s *Server) act(ctx context.Context, pageID, name string, t cdpclient.Target, fn func(context.Context, *cdpclient.Page) error) (*mcp.CallToolResult, error) {
	return s.actValue(ctx, pageID, name, t, func(ctx context.Context, p *cdpclient.Page) (string, error) {
		return "", fn(ctx, p)
	})
}

// actValue is act for actions that leave a value worth reporting (the value a
// field ended up with, the scroll position); it goes into delta.value.
func (s *Server) actValue(ctx context.Context, pageID, name string, t cdpclient.Target, fn func(context.Context, *cdpclient.Page) (string, error)) (*mcp.CallToolResult, error) {
	p, err := s.page(ctx, pageID)
	if err != nil {
		return nil, err
	}
	var value string
	fb, err := p.Act(ctx, name, t, func(ctx context.Context) error {
		var err error
		value, err = fn(ctx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	if fb.OK && value != "" {
		if fb.Delta == nil {
			fb.Delta = &feedback.Delta{}
		}
		fb.Delta.Value = value
	}
	return feedbackResult(fb), nil
}

// deadline derives a context from a timeoutMs argument: def when 0, capped at
// two minutes.
func deadline(ctx context.Context, timeoutMs int, def time.Duration) (context.Context, context.CancelFunc, error) {
	if timeoutMs < 0 {
		return nil, nil, badArg("give timeoutMs in milliseconds, e.g. 10000", "timeoutMs %d is negative", timeoutMs)
	}
	d := def
	if timeoutMs > 0 {
		d = min(time.Duration(timeoutMs)*time.Millisecond, 2*time.Minute)
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, nil
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
		tt.Result = tt.Result[:2000] + "…"
	}
	return tt
}
