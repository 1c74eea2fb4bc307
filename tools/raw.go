package tools

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

func (s *Server) rawTools() []toolDef {
	desc := "Send a raw Chrome DevTools Protocol command and return its JSON result. page \"browser\" targets the browser itself."
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
	if !s.cdpAllowed(method) {
		return permissionResult("cdp", "read-only mode refused "+method+": it is not a read-only method",
			"allowed: getters of "+readOnlyDomains+" (e.g. DOM.getDocument, Page.getLayoutMetrics)"), nil
	}
	if len(a.Params) > 0 && a.Params[0] != '{' && string(a.Params) != "null" {
		return nil, badArg(`pass params as an object, e.g. {"ignoreCache":true}`, "params must be a JSON object")
	}
	var out json.RawMessage
	if a.Page == "browser" {
		bc, err := s.sessions.context(ctx)
		if err != nil {
			return nil, err
		}
		if out, err = bc.Browser().Raw(ctx, method, a.Params); err != nil {
			return nil, err
		}
	} else {
		p, err := s.page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		if out, err = p.Raw(ctx, method, a.Params); err != nil {
			return nil, err
		}
	}
	return textResult(capText(string(out), "ask for less (e.g. a smaller depth)")), nil
}
