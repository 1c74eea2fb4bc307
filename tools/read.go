package tools

import (
	"context"
	"encoding/base64"
	"fmt"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

// maxTextResult caps text answers (evaluate, getContent) so one call cannot flood
// the model's context.
const maxTextResult = 50000

func (s *Server) readTools() []toolDef {
	evalDesc := "Run JavaScript in the page and return the value as JSON. With ref/selector, expression must be a function taking the element, e.g. (el) => el.value."
	evalHints := hints(false, true, false, true)
	if s.cfg.ReadOnly {
		evalDesc = "Run side-effect-free JavaScript in the page (read-only mode refuses anything that changes the page) and return the value as JSON. With ref/selector, expression must be a function taking the element."
		evalHints = hints(true, false, true, true)
	}
	return []toolDef{
		{
			tool: mcp.NewTool("evaluate",
				mcp.WithDescription(evalDesc),
				mcp.WithString("expression", mcp.Required()),
				refArg(), selectorArg(),
				mcp.WithBoolean("awaitPromise", mcp.Description("wait for a returned promise (default true)")),
				pageArg(), evalHints),
			run: s.evaluate, readOnly: true,
		},
		{
			tool: mcp.NewTool("getTitle", mcp.WithDescription("The page's title."), pageArg(), hints(true, false, true, false)),
			run:  s.getTitle, readOnly: true,
		},
		{
			tool: mcp.NewTool("getUrl", mcp.WithDescription("The page's URL."), pageArg(), hints(true, false, true, false)),
			run:  s.getURL, readOnly: true,
		},
		{
			tool: mcp.NewTool("getContent",
				mcp.WithDescription("The page's main content (the article, found as Firefox Reader View does) as Markdown or plain text, or its HTML; or one element's. Markdown and text have no refs: use snapshot to act."),
				mcp.WithString("selector", mcp.Description("CSS selector of the element (default whole page)")),
				mcp.WithString("format", mcp.Enum("html", "markdown", "text"), mcp.Description("default html")),
				pageArg(), hints(true, false, true, true)),
			run: s.getContent, readOnly: true,
		},
		{
			tool: mcp.NewTool("screenshot",
				mcp.WithDescription("Capture the viewport, the full page or one element as an image."),
				mcp.WithBoolean("fullPage"), refArg(), selectorArg(),
				mcp.WithBoolean("annotate", mcp.Description("draw each ref's number on its element")),
				mcp.WithString("format", mcp.Enum("png", "jpeg")),
				mcp.WithInteger("quality", mcp.Description("jpeg quality 0-100")),
				pageArg(), hints(true, false, true, true)),
			run: s.screenshot, readOnly: true,
		},
	}
}

func (s *Server) evaluate(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page         string `json:"page"`
		Expression   string `json:"expression"`
		AwaitPromise *bool  `json:"awaitPromise"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := require("expression", a.Expression, `{"expression":"document.title"}`); err != nil {
		return nil, err
	}
	p, err := s.page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	opts := cdpclient.EvalOptions{Target: a.target(), AwaitPromise: a.AwaitPromise == nil || *a.AwaitPromise, SideEffectFree: s.cfg.ReadOnly}
	out, err := p.Evaluate(ctx, a.Expression, opts)
	if err != nil {
		return nil, err
	}
	return textResult(capText(out, "")), nil
}

func (s *Server) getTitle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p, err := s.pageOnly(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := p.Usable(); err != nil {
		return nil, err
	}
	return textResult(p.DocumentTitle(ctx)), nil
}

func (s *Server) getURL(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p, err := s.pageOnly(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := p.Usable(); err != nil {
		return nil, err
	}
	return textResult(p.URL()), nil
}

// pageOnly resolves a call whose only argument is page.
func (s *Server) pageOnly(ctx context.Context, req mcp.CallToolRequest) (*cdpclient.Page, error) {
	var a struct {
		Page string `json:"page"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	return s.page(ctx, a.Page)
}

func (s *Server) getContent(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Page     string `json:"page"`
		Selector string `json:"selector"`
		Format   string `json:"format"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	p, err := s.page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	out, err := p.Content(ctx, a.Selector, a.Format)
	if err != nil {
		return nil, err
	}
	return textResult(capText(out, "pass a selector to read one part of the page")), nil
}

// capText cuts a long answer and says how much was left out.
func capText(s, how string) string {
	if len(s) <= maxTextResult {
		return s
	}
	cut := maxTextResult
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	note := fmt.Sprintf("\n[truncated: %d more bytes", len(s)-cut)
	if how != "" {
		note += "; " + how
	}
	return s[:cut] + note + "]"
}

func (s *Server) screenshot(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page     string `json:"page"`
		FullPage bool   `json:"fullPage"`
		Annotate bool   `json:"annotate"`
		Format   string `json:"format"`
		Quality  int    `json:"quality"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	p, err := s.page(ctx, a.Page)
	if err != nil {
		return nil, err
	}
	data, mime, err := p.Screenshot(ctx, cdpclient.ScreenshotOptions{FullPage: a.FullPage, Target: a.target(), Format: a.Format, Quality: a.Quality, Annotate: a.Annotate})
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewImageContent(base64.StdEncoding.EncodeToString(data), mime)}}, nil
}
