package tools

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdppolicy"
	"github.com/mark3labs/mcp-go/mcp"
)

func (s *Server) rawTools() []toolDef {
	desc := "Send a raw Chrome DevTools Protocol command and return its JSON result. page \"browser\" targets the browser itself (this session's own context only). Methods that switch off cdpmcp's guards or reach other sessions are refused."
	h := hints(false, true, false, true)
	if s.cfg.ReadOnly {
		desc = "Send a read-only Chrome DevTools Protocol command (getters of " + readOnlyDomains + ") and return its JSON result."
		h = hints(true, false, true, true)
	}
	return []toolDef{
		{
			tool: mcp.NewTool("cdp",
				mcp.WithDescription(desc),
				mcp.WithString("domain", mcp.Required(), mcp.Description("e.g. Page, Runtime, Network")),
				mcp.WithString("method", mcp.Required(), mcp.Description("e.g. getLayoutMetrics")),
				mcp.WithObject("params", mcp.Description("command parameters")),
				pageArg(), h),
			run: s.rawCDP, readOnly: true,
		},
	}
}

func (s *Server) rawCDP(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Page   string          `json:"page"`
		Domain string          `json:"domain"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := require("domain", a.Domain, `{"domain":"Page","method":"getLayoutMetrics"}`); err != nil {
		return nil, err
	}
	if err := require("method", a.Method, `{"domain":"Page","method":"getLayoutMetrics"}`); err != nil {
		return nil, err
	}
	method := a.Domain + "." + a.Method
	if d, m, ok := strings.Cut(a.Method, "."); ok {
		if !strings.EqualFold(d, a.Domain) {
			return nil, badArg("pass domain and method separately, e.g. domain Page, method reload", "method %q does not belong to domain %q", a.Method, a.Domain)
		}
		method = a.Domain + "." + m
	}
	if len(a.Params) > 0 && a.Params[0] != '{' && string(a.Params) != "null" {
		return nil, badArg(`pass params as an object, e.g. {"ignoreCache":true}`, "params must be a JSON object")
	}
	level := cdppolicy.Page
	if a.Page == "browser" {
		level = cdppolicy.Browser
	}
	// Refused before the browser is touched (or launched); cdpclient checks
	// again and applies the method's scope.
	_, err := cdppolicy.Check(method, level, s.cfg.ReadOnly, a.Params)
	var out json.RawMessage
	if err == nil {
		out, err = s.sendRaw(ctx, a.Page, method, a.Params)
	}
	if hint := refusalHint(err); hint != "" {
		msg := err.Error()
		if s.cfg.ReadOnly {
			msg = "read-only mode: " + msg
		}
		return permissionResult("cdp", msg, hint), nil
	}
	if err != nil {
		return nil, err
	}
	return textResult(capText(string(out), "ask for less (e.g. a smaller depth)")), nil
}

// sendRaw sends a confined raw call to the browser (page "browser") or a page.
func (s *Server) sendRaw(ctx context.Context, page, method string, params json.RawMessage) (json.RawMessage, error) {
	if page == "browser" {
		bc, err := s.sessions.context(ctx)
		if err != nil {
			return nil, err
		}
		return bc.BrowserCDP(ctx, method, params, s.cfg.ReadOnly)
	}
	p, err := s.page(ctx, page)
	if err != nil {
		return nil, err
	}
	return p.CDP(ctx, method, params, s.cfg.ReadOnly)
}
