package actions

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdppolicy"
	"github.com/cdpmcp/cdpmcp/cdpclient/passthrough"
)

type cdpArgs struct {
	Domain string          `json:"domain" required:"true" desc:"e.g. Page, DOM"`
	Method string          `json:"method" required:"true" desc:"e.g. getLayoutMetrics"`
	Params json.RawMessage `json:"params" desc:"parameters"`
	Page   string          `json:"page"`
}

// CDP sends a raw DevTools command.
var CDP = define("cdp", "Send a raw Chrome DevTools Protocol command; returns its JSON result. page \"browser\" for browser methods. Methods that bypass cdpmcp's guards are refused.",
	ClassRead, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a cdpArgs) (*Result, error) {
		if err := require("domain", a.Domain, `{"domain":"Page","method":"getLayoutMetrics"}`); err != nil {
			return nil, err
		}
		if err := require("method", a.Method, `{"domain":"Page","method":"getLayoutMetrics"}`); err != nil {
			return nil, err
		}
		method := a.Domain + "." + a.Method
		if d, m, ok := strings.Cut(a.Method, "."); ok {
			if !strings.EqualFold(d, a.Domain) {
				return nil, argErr("pass domain and method separately, e.g. domain Page, method reload", "method %q does not belong to domain %q", a.Method, a.Domain)
			}
			method = a.Domain + "." + m
		}
		if len(a.Params) > 0 && a.Params[0] != '{' && string(a.Params) != "null" {
			return nil, argErr(`pass params as an object, e.g. {"ignoreCache":true}`, "params must be a JSON object")
		}
		level := cdppolicy.Page
		if a.Page == "browser" {
			level = cdppolicy.Browser
		}
		// Refused before the browser is touched (or launched); the
		// passthrough checks again and applies the method's scope.
		_, err := cdppolicy.Check(method, level, env.ReadOnly, a.Params)
		var out json.RawMessage
		if err == nil {
			out, err = env.sendRaw(ctx, a.Page, method, a.Params)
		}
		if hint := refusalHint(err); hint != "" {
			msg := err.Error()
			if env.ReadOnly {
				msg = "read-only mode: " + msg
			}
			return permission("cdp", msg, hint), nil
		}
		if err != nil {
			return nil, err
		}
		return &Result{Text: capText(string(out), "ask for less (e.g. a smaller depth)")}, nil
	}).inReadOnly("Send a read-only Chrome DevTools Protocol command (getters of "+readOnlyDomains+") and return its JSON result.",
	Hints{ReadOnly: true, Idempotent: true, OpenWorld: true})

// sendRaw sends a confined raw call to the browser (page "browser": the
// caller's own context only) or a page.
func (e *Env) sendRaw(ctx context.Context, page, method string, params json.RawMessage) (json.RawMessage, error) {
	if page == "browser" {
		bc, err := e.Context(ctx)
		if err != nil {
			return nil, err
		}
		return passthrough.Browser(ctx, bc, method, params, e.ReadOnly)
	}
	p, err := e.Page(ctx, page)
	if err != nil {
		return nil, err
	}
	return passthrough.Page(ctx, p, method, params, e.ReadOnly)
}
