package tools

import (
	"errors"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

// checkNavURL looks at a URL a client wants opened (cdpclient.CheckNavigation):
// a malformed one is an argument error; one the policy refuses is returned as
// a PERMISSION feedback result, without touching the browser.
func (s *Server) checkNavURL(act, raw string) (*mcp.CallToolResult, error) {
	err := cdpclient.CheckNavigation(s.cfg.Origins, raw, s.cfg.ReadOnly)
	var pe *cdpclient.Error
	if errors.As(err, &pe) && pe.Code == cdpclient.CodePermission {
		return permissionResult(act, pe.Msg, pe.Hint), nil
	}
	return nil, err
}
