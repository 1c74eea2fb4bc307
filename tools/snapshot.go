package tools

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/mark3labs/mcp-go/mcp"
)

func (s *Server) snapshotTools() []toolDef {
	return []toolDef{
		{
			tool: mcp.NewTool("snapshot",
				mcp.WithDescription("The page as numbered elements: N[:]<tag attrs>name</tag> lines you can act on by ref=N, and _[:] context lines (frames and shadow DOM included). Refs stay valid while the element lives."),
				mcp.WithString("ref", mcp.Description("only this element's subtree")),
				mcp.WithString("selector", mcp.Description("only this element's subtree")),
				mcp.WithInteger("maxTokens", mcp.Description(fmt.Sprintf("token budget (default: all elements, about %d in all); text is left out first, marked with …", snapshot.DefaultTokens))),
				mcp.WithBoolean("diff", mcp.Description("only what changed since the last snapshot")),
				pageArg(), hints(true, false, true, true)),
			run: s.snapshot, readOnly: true,
		},
	}
}

func (s *Server) snapshot(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page      string `json:"page"`
		MaxTokens int    `json:"maxTokens"`
		Diff      bool   `json:"diff"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if a.MaxTokens < 0 {
		return nil, badArg("give a positive budget, e.g. 4000", "maxTokens %d is negative", a.MaxTokens)
	}
	p, err := s.page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	text, err := p.Snapshot(ctx, cdpclient.SnapshotOptions{Scope: a.target(), MaxTokens: a.MaxTokens, Diff: a.Diff})
	if err != nil {
		return nil, err
	}
	return textResult(text), nil
}
