package actions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdppolicy"
	"github.com/cdpmcp/cdpmcp/cdpclient/passthrough"
)

type cdpArgs struct {
	Domain string          `json:"domain" desc:"e.g. Page; optional when method names it"`
	Method string          `json:"method" required:"true" desc:"e.g. Page.getLayoutMetrics"`
	Params json.RawMessage `json:"params" desc:"parameters"`
	Page   string          `json:"page"`
}

// CDP sends a raw DevTools command.
var CDP = define("cdp", "Send a raw Chrome DevTools Protocol command; returns its JSON result. page \"browser\" for browser methods. Methods that bypass cdpmcp's guards are refused.",
	ClassRead, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a cdpArgs) (*Result, error) {
		method, err := cdpMethod(a.Domain, a.Method)
		if err != nil {
			return nil, err
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
		_, err = cdppolicy.Check(method, level, env.ReadOnly, a.Params)
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

// cdpMethod is the method's full name: {"method":"Page.reload"} and
// {"domain":"Page","method":"reload"} both name Page.reload; a domain that
// the method's own prefix contradicts is an error.
func cdpMethod(domain, method string) (string, error) {
	if err := require("method", method, `{"method":"Page.getLayoutMetrics"}`); err != nil {
		return "", err
	}
	d, m, dotted := strings.Cut(method, ".")
	switch {
	case dotted && domain != "" && !strings.EqualFold(d, domain):
		return "", argErr(fmt.Sprintf(`give the domain once: {"method":%q}, or {"domain":%q,"method":%q}`, method, domain, m),
			"method %q is not in domain %q", method, domain)
	case dotted:
		return d + "." + m, nil
	case domain == "":
		return "", argErr(fmt.Sprintf(`name the domain in the method, e.g. {"method":%q}`, withDomain(method)), "method %q names no domain", method)
	}
	return domain + "." + method, nil
}

// withDomain is method with the domain of an allowed method of that name
// (getVersion: Browser.getVersion), or Page's.
func withDomain(method string) string {
	for _, m := range cdppolicy.Methods() {
		if _, name, _ := strings.Cut(m, "."); strings.EqualFold(name, method) {
			return m
		}
	}
	return "Page." + method
}

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
