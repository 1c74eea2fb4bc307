package cdpclient

import (
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// CheckNavigation says whether a client may open raw, before the browser is
// touched: a malformed URL is an *ArgError; one the rules refuse (local files,
// browser pages, origins outside the policy, script and data URLs in read-only
// mode) is an *Error with CodePermission whose Hint says what is allowed. The
// browser enforces the same policy on every request (guard.go, egress), so this
// is the early, clear answer, not the only line.
func CheckNavigation(policy *origins.List, raw string, readOnly bool) error {
	raw = strings.TrimSpace(raw)
	u, err := CheckURL(raw)
	if err != nil {
		return err
	}
	scheme := strings.ToLower(u.Scheme)
	if readOnly && (scheme == "javascript" || scheme == "data") {
		return &Error{Code: CodePermission, Msg: scheme + ": URLs are refused in read-only mode",
			Hint: "read-only mode opens web pages (http, https) only"}
	}
	if err := policy.Check(raw); err != nil {
		return &Error{Code: CodePermission, Msg: "blocked: " + err.Error(),
			Hint: "this server only opens the allowed origins; stay on them"}
	}
	return nil
}
