package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

func (s *Server) pageTools() []toolDef {
	return []toolDef{
		{
			tool: mcp.NewTool("newPage",
				mcp.WithDescription("Open a new tab (optionally at url) and make it current. Returns the page list."),
				mcp.WithString("url", mcp.Description("URL to open")),
				hints(false, false, false, true)),
			run: s.newPage, readOnly: true,
		},
		{
			tool: mcp.NewTool("closePage",
				mcp.WithDescription("Close a tab (default: the current one). Returns the page list."),
				pageArg(), hints(false, true, false, false)),
			run: s.closePage,
		},
		{
			tool: mcp.NewTool("listPages",
				mcp.WithDescription("List open tabs: id, title, URL; * marks the current one."),
				hints(true, false, true, false)),
			run: s.listPages, readOnly: true,
		},
		{
			tool: mcp.NewTool("switchPage",
				mcp.WithDescription("Make a tab current (and bring it to the front). Returns the page list."),
				mcp.WithString("page", mcp.Required(), mcp.Description("page id, e.g. p2")),
				hints(false, false, true, false)),
			run: s.switchPage, readOnly: true,
		},
	}
}

// pageList renders the context's pages, one per line: "* p2 Title — URL".
func pageList(ctx context.Context, bc *cdpclient.BrowserContext) string {
	pages := bc.Pages()
	if len(pages) == 0 {
		return "no pages open"
	}
	cur := bc.Current()
	var b strings.Builder
	for _, p := range pages {
		mark := " "
		if p == cur {
			mark = "*"
		}
		title := p.DocumentTitle(ctx)
		if title == "" {
			title = "(no title)"
		}
		fmt.Fprintf(&b, "%s %s %s — %s\n", mark, p.ID, title, p.URL())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (s *Server) newPage(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		URL string `json:"url"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if a.URL != "" {
		if res, err := s.checkNavURL("navigate", a.URL); res != nil || err != nil {
			return res, err
		}
	}
	bc, err := s.sessions.context(ctx)
	if err != nil {
		return nil, err
	}
	p, err := bc.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	if a.URL == "" {
		return textResult(pageList(ctx, bc)), nil
	}
	fb, err := p.Act(ctx, "navigate", cdpclient.Target{}, func(ctx context.Context) error {
		return p.Navigate(ctx, a.URL, cdpclient.WaitLoad)
	})
	if err != nil {
		return nil, err
	}
	res := feedbackResult(fb)
	res.Content = append([]mcp.Content{mcp.NewTextContent(pageList(ctx, bc))}, res.Content...)
	return res, nil
}

func (s *Server) closePage(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p, err := s.pageOnly(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := p.Close(ctx); err != nil {
		return nil, err
	}
	return textResult("closed " + p.ID + "\n" + pageList(ctx, p.Context())), nil
}

func (s *Server) listPages(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := bind(req, &struct{}{}); err != nil {
		return nil, err
	}
	bc, err := s.sessions.context(ctx)
	if err != nil {
		return nil, err
	}
	return textResult(pageList(ctx, bc)), nil
}

func (s *Server) switchPage(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Page string `json:"page"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := require("page", a.Page, `{"page":"p2"}`); err != nil {
		return nil, err
	}
	p, err := s.page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	if err := p.Activate(ctx); err != nil {
		return nil, err
	}
	return textResult(pageList(ctx, p.Context())), nil
}
