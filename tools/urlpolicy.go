package tools

import (
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

// checkNavURL looks at a URL a client wants opened. A malformed one (no scheme,
// no host) is an argument error; one the policy refuses (local files, browser
// pages, origins outside --allowed-origins, script URLs in read-only mode) is
// returned as a PERMISSION feedback result, without touching the browser.
func (s *Server) checkNavURL(act, raw string) (*mcp.CallToolResult, error) {
	raw = strings.TrimSpace(raw)
	u, err := cdpclient.CheckURL(raw)
	if err != nil {
		return nil, err
	}
	scheme := strings.ToLower(u.Scheme)
	if s.cfg.ReadOnly && (scheme == "javascript" || scheme == "data") {
		return permissionResult(act, scheme+": URLs are refused in read-only mode", "read-only mode opens web pages (http, https) only"), nil
	}
	if err := s.cfg.Origins.Check(raw); err != nil {
		return permissionResult(act, "blocked: "+err.Error(), "this server only opens the allowed origins; stay on them"), nil
	}
	return nil, nil
}
