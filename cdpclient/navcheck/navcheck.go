// Package navcheck says whether a client may open a URL, before the browser
// is touched: a URL a tab can open at all (URL), and one the origin rules
// and read-only mode allow (Navigation). It is pure; the core re-exports
// both (cdpclient.CheckURL, CheckNavigation).
package navcheck

import (
	"net/url"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// URL checks that raw is a URL a tab can open: absolute, with a scheme,
// with a host for http(s), on one line. Whether policy allows it is for the
// caller (origins.List) to say.
func URL(raw string) (*url.URL, error) {
	lower := strings.ToLower(raw)
	if !strings.Contains(raw, "://") && !strings.HasPrefix(lower, "about:") && !strings.HasPrefix(lower, "data:") &&
		!strings.HasPrefix(lower, "javascript:") && !strings.HasPrefix(lower, "view-source:") {
		return nil, failure.ArgErrorf("include the scheme, e.g. https://"+raw+" (or http:// for a local server)", "%q has no scheme", raw)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return nil, failure.ArgErrorf("give an absolute URL such as https://example.com/", "%q is not a valid URL", raw)
	}
	if scheme := strings.ToLower(u.Scheme); u.Opaque == "" && u.Host == "" && (scheme == "http" || scheme == "https") {
		return nil, failure.ArgErrorf("give an absolute URL such as https://example.com/", "%q has no host", raw)
	}
	if strings.ContainsAny(raw, "\n\r") {
		return nil, failure.ArgErrorf("remove line breaks from the URL", "the URL contains a line break")
	}
	return u, nil
}

// Navigation says whether a client may open raw, before the browser is
// touched: a malformed URL is a *failure.ArgError; one the rules refuse
// (local files, browser pages, origins outside the policy, script and data
// URLs in read-only mode) is a *failure.Error with CodePermission whose Hint
// says what is allowed. The browser enforces the same policy on every
// request (the core's request guard, and egress), so this is the early,
// clear answer, not the only line.
func Navigation(policy *origins.List, raw string, readOnly bool) error {
	raw = strings.TrimSpace(raw)
	u, err := URL(raw)
	if err != nil {
		return err
	}
	scheme := strings.ToLower(u.Scheme)
	if readOnly && (scheme == "javascript" || scheme == "data") {
		return &failure.Error{Code: failure.CodePermission, Msg: scheme + ": URLs are refused in read-only mode",
			Hint: "read-only mode opens web pages (http, https) only"}
	}
	if err := policy.Check(raw); err != nil {
		return &failure.Error{Code: failure.CodePermission, Msg: "blocked: " + err.Error(),
			Hint: "this server only opens the allowed origins; stay on them"}
	}
	return nil
}
