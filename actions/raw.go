package actions

import (
	"context"
	"encoding/json"
	"strings"
)

type cdpArgs struct {
	Domain string          `json:"domain" required:"true" desc:"e.g. Page, Runtime, Network"`
	Method string          `json:"method" required:"true" desc:"e.g. getLayoutMetrics"`
	Params json.RawMessage `json:"params" desc:"command parameters"`
	Page   string          `json:"page"`
}

// CDP sends a raw DevTools command.
var CDP = define("cdp", "Send a raw Chrome DevTools Protocol command and return its JSON result. page \"browser\" targets the browser itself.",
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
		if !cdpAllowed(env.ReadOnly, method) {
			return permission("cdp", "read-only mode refused "+method+": it is not a read-only method",
				"allowed: getters of "+readOnlyDomains+" (e.g. DOM.getDocument, Page.getLayoutMetrics)"), nil
		}
		if len(a.Params) > 0 && a.Params[0] != '{' && string(a.Params) != "null" {
			return nil, argErr(`pass params as an object, e.g. {"ignoreCache":true}`, "params must be a JSON object")
		}
		var out json.RawMessage
		if a.Page == "browser" {
			bc, err := env.Context(ctx)
			if err != nil {
				return nil, err
			}
			if out, err = bc.Browser().Raw(ctx, method, a.Params); err != nil {
				return nil, err
			}
		} else {
			p, err := env.Page(ctx, a.Page)
			if err != nil {
				return nil, err
			}
			if out, err = p.Raw(ctx, method, a.Params); err != nil {
				return nil, err
			}
		}
		return &Result{Text: capText(string(out), "ask for less (e.g. a smaller depth)")}, nil
	}).inReadOnly("Send a read-only Chrome DevTools Protocol command (getters of "+readOnlyDomains+") and return its JSON result.",
	Hints{ReadOnly: true, Idempotent: true, OpenWorld: true})
