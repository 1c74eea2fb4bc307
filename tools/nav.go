package tools

import (
	"context"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

const navTimeout = 30 * time.Second

func waitUntilArg() mcp.ToolOption {
	return mcp.WithString("waitUntil", mcp.Enum("load", "domcontentloaded", "networkidle", "commit"),
		mcp.Description("load state to wait for (default load)"))
}

func timeoutArg(def string) mcp.ToolOption {
	return mcp.WithInteger("timeoutMs", mcp.Description("deadline in ms (default "+def+", max 120000)"))
}

func (s *Server) navTools() []toolDef {
	return []toolDef{
		{
			tool: mcp.NewTool("navigate",
				mcp.WithDescription("Open a URL in the page and wait for it to load. Returns feedback JSON (final url, title, requests, errors)."),
				mcp.WithString("url", mcp.Required(), mcp.Description("absolute URL, e.g. https://example.com")),
				pageArg(), waitUntilArg(), timeoutArg("30000"),
				hints(false, false, true, true)),
			run: s.navigate, readOnly: true, ownTimeout: true,
		},
		{
			tool: mcp.NewTool("reload",
				mcp.WithDescription("Reload the page and wait for it to load. Returns feedback JSON."),
				pageArg(), mcp.WithBoolean("ignoreCache", mcp.Description("bypass the cache")), waitUntilArg(), timeoutArg("30000"),
				hints(false, false, true, true)),
			run: s.reload, readOnly: true, ownTimeout: true,
		},
		{
			tool: mcp.NewTool("goBack",
				mcp.WithDescription("Go back one page in the tab's history. Returns feedback JSON."),
				pageArg(), waitUntilArg(), timeoutArg("30000"),
				hints(false, false, false, true)),
			run: s.historyTool(-1), readOnly: true, ownTimeout: true,
		},
		{
			tool: mcp.NewTool("goForward",
				mcp.WithDescription("Go forward one page in the tab's history. Returns feedback JSON."),
				pageArg(), waitUntilArg(), timeoutArg("30000"),
				hints(false, false, false, true)),
			run: s.historyTool(+1), readOnly: true, ownTimeout: true,
		},
	}
}

type navArgs struct {
	Page      string `json:"page"`
	WaitUntil string `json:"waitUntil"`
	TimeoutMs int    `json:"timeoutMs"`
}

// navAct runs a page-level navigation as an action under the caller's deadline
// (timeoutMs, default navTimeout).
func (s *Server) navAct(ctx context.Context, a navArgs, name string, fn func(context.Context, *cdpclient.Page) error) (*mcp.CallToolResult, error) {
	ctx, cancel, err := deadline(ctx, a.TimeoutMs, navTimeout)
	if err != nil {
		return nil, err
	}
	defer cancel()
	return s.act(ctx, a.Page, name, cdpclient.Target{}, fn)
}

func (s *Server) navigate(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		navArgs
		URL string `json:"url"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := require("url", a.URL, `{"url":"https://example.com"}`); err != nil {
		return nil, err
	}
	if res, err := s.checkNavURL("navigate", a.URL); res != nil || err != nil {
		return res, err
	}
	return s.navAct(ctx, a.navArgs, "navigate", func(ctx context.Context, p *cdpclient.Page) error {
		return p.Navigate(ctx, a.URL, cdpclient.WaitUntil(a.WaitUntil))
	})
}

func (s *Server) reload(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		navArgs
		IgnoreCache bool `json:"ignoreCache"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	return s.navAct(ctx, a.navArgs, "reload", func(ctx context.Context, p *cdpclient.Page) error {
		return p.Reload(ctx, a.IgnoreCache, cdpclient.WaitUntil(a.WaitUntil))
	})
}

func (s *Server) historyTool(delta int) func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name := "goBack"
	if delta > 0 {
		name = "goForward"
	}
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var a navArgs
		if err := bind(req, &a); err != nil {
			return nil, err
		}
		return s.navAct(ctx, a, name, func(ctx context.Context, p *cdpclient.Page) error {
			if delta < 0 {
				return p.GoBack(ctx, cdpclient.WaitUntil(a.WaitUntil))
			}
			return p.GoForward(ctx, cdpclient.WaitUntil(a.WaitUntil))
		})
	}
}
