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
				mcp.WithDescription("The page as numbered elements: N[:]<tag attrs>name</tag> lines you can act on by ref=N, and _[:] context lines (frames and shadow DOM included), the reading text whole. Menus, footers and long lists are summarised in … lines that say how to see them. Refs stay valid while the element lives."),
				mcp.WithString("ref", mcp.Description("only this element's subtree (a … line's ref shows what it summarises)")),
				mcp.WithString("selector", mcp.Description("only this element's subtree")),
				mcp.WithInteger("maxTokens", mcp.Description(fmt.Sprintf("token budget (default %d, chrome summarised); -1 for everything", snapshot.DefaultTokens))),
				mcp.WithInteger("from", mcp.Description("continue a cut snapshot from this line, as its … line says")),
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
		From      int    `json:"from"`
		Diff      bool   `json:"diff"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if a.MaxTokens < -1 {
		return nil, badArg("give a positive budget, e.g. 4000, or -1 for no limit", "maxTokens %d is negative", a.MaxTokens)
	}
	if a.From < 0 {
		return nil, badArg("from is a line number from a … line, e.g. 812", "from %d is negative", a.From)
	}
	p, err := s.page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	text, err := p.Snapshot(ctx, cdpclient.SnapshotOptions{Scope: a.target(), MaxTokens: a.MaxTokens, From: a.From, Diff: a.Diff})
	if err != nil {
		return nil, err
	}
	return textResult(text), nil
}
