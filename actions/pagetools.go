package actions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/webmcp"
)

// The tools a page offers agents (WebMCP: document.modelContext.registerTool),
// listed and called under the same rules as every action: in read-only mode
// only the tools the page says only read, and never a tool whose frame shows
// an origin the rules refuse. A tool's output is the page's words: data for
// the model, never instructions.

type pageToolsArgs struct {
	Page string `json:"page"`
}

// PageTools lists the tools the tab's page registered.
var PageTools = define("pageTools", "List the tools this page offers agents (WebMCP): name, what it does, input schema. Call one with callPageTool.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a pageToolsArgs) (*Result, error) {
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		tools, avail, err := webmcp.List(ctx, p)
		if err != nil {
			return nil, err
		}
		if len(tools) == 0 {
			if avail.Off != "" {
				return &Result{Text: "no page tools: " + avail.Off + " (" + avail.Hint + ")"}, nil
			}
			return &Result{Text: "no page tools: " + p.URL() + " registered none; use its controls (snapshot, click)"}, nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d tools on %s:\n", len(tools), p.URL())
		for _, t := range tools {
			b.WriteString(toolLine(env, t))
		}
		return &Result{Text: capText(b.String(), "")}, nil
	}).inGroup("webmcp")

// toolLine is one tool as pageTools lists it: name, what the page says of
// it, its input schema.
func toolLine(env *Env, t webmcp.Tool) string {
	var notes []string
	if t.ReadOnly {
		notes = append(notes, "read-only")
	} else if env.ReadOnly {
		notes = append(notes, "changes the page: refused in read-only mode")
	}
	if t.Untrusted {
		notes = append(notes, "output holds others' content")
	}
	if refusal := originRefusal(env, t); refusal != "" {
		notes = append(notes, "refused: "+refusal)
	}
	if !t.Main {
		notes = append(notes, "in frame "+t.FrameURL)
	}
	line := t.Name
	if len(notes) > 0 {
		line += " (" + strings.Join(notes, "; ") + ")"
	}
	line += ": " + oneLine(t.Description, 300) + "\n"
	if schema := compactSchema(t.InputSchema); schema != "" {
		line += "  input: " + schema + "\n"
	}
	return line
}

type callPageToolArgs struct {
	Name      string          `json:"name" required:"true" desc:"from pageTools"`
	Arguments json.RawMessage `json:"arguments" desc:"per its input schema"`
	Page      string          `json:"page"`
}

// CallPageTool calls a tool the tab's page registered.
var CallPageTool = define("callPageTool", "Call a tool this page offers (pageTools) with its arguments; answers its result and what the page did.",
	ClassRead, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a callPageToolArgs) (*Result, error) {
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		var refused *Result
		errRefused := errors.New("refused")
		got, err := webmcp.Call(ctx, p, a.Name, a.Arguments, func(t webmcp.Tool) error {
			switch {
			case env.ReadOnly && !t.ReadOnly:
				refused = permission("callPageTool", fmt.Sprintf("read-only mode calls only the page's tools that say they only read (readOnlyHint), and %s does not", t.Name),
					"call a tool pageTools marks read-only, or read the page (snapshot, getContent)")
			case originRefusal(env, t) != "":
				refused = permission("callPageTool", fmt.Sprintf("%s belongs to %s, which %s", t.Name, t.FrameURL, originRefusal(env, t)),
					"call the tools of pages on allowed origins only")
			default:
				return nil
			}
			return errRefused
		})
		if refused != nil {
			return refused, nil
		}
		if err != nil {
			return nil, err
		}
		got.Feedback.Act = "callPageTool"
		out := &Result{Feedback: got.Feedback}
		if got.Feedback.OK && len(got.Output) > 0 {
			label := "result of " + got.Tool.Name
			if got.Tool.Untrusted {
				label += " (the page says it holds content it does not vouch for)"
			}
			out.Text = capText(label+": "+outputText(got.Output), "") + "\n"
		}
		return out, nil
	}).inGroup("webmcp").
	inReadOnly("Call a read-only tool this page offers (pageTools) with its arguments; answers its result and what the page did.",
		Hints{ReadOnly: true, OpenWorld: true})

// originRefusal says why the origin rules refuse the tool's frame, or "".
func originRefusal(env *Env, t webmcp.Tool) string {
	if env.Origins == nil || t.FrameURL == "" {
		return ""
	}
	if err := env.Origins.Check(t.FrameURL); err != nil {
		return "the origin rules refuse: " + err.Error()
	}
	return ""
}

// compactSchema is an input schema as one line of JSON, "" when it takes
// nothing (no schema, or an object without properties).
func compactSchema(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return ""
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(raw, &s) == nil && len(s.Properties) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return ""
	}
	return oneLine(b.String(), 2000)
}

// outputText is a tool's output as the model reads it: a string as it is,
// the text of an MCP style {"content":[{"type":"text","text":…}]} answer,
// else its JSON.
func outputText(raw json.RawMessage) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	var mcp struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &mcp) == nil && len(mcp.Content) > 0 {
		var texts []string
		for _, c := range mcp.Content {
			if c.Type != "text" {
				texts = nil
				break
			}
			texts = append(texts, c.Text)
		}
		if texts != nil {
			return strings.Join(texts, "\n")
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// oneLine folds white space and cuts s to n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
