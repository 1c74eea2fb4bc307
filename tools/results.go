package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

// errResult turns an error into a tool result a model can act on. Only a
// cancelled request stays a Go (protocol-level) error.
func errResult(ctx context.Context, err error) (*mcp.CallToolResult, error) {
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil, err
	}
	msg, hint := describe(err)
	if hint != "" {
		msg += "\nhint: " + hint
	}
	return mcp.NewToolResultError(msg), nil
}

// describe gives an error's message and the hint that goes with it.
func describe(err error) (msg, hint string) {
	var (
		cae *cdpclient.ArgError
		up  *cdpclient.UnknownPageError
	)
	switch {
	case errors.As(err, &cae):
		return cae.Msg, cae.Hint
	case errors.As(err, &up):
		return up.Error(), "use listPages to see open pages, or newPage"
	}
	if code, msg, hint, ok := cdpclient.Explain(err); ok {
		return code.String() + ": " + msg, hint
	}
	s := err.Error()
	if strings.Contains(s, "no browser found") || strings.Contains(s, "browser exited during start-up") {
		return "the browser could not be started: " + s, "install chromium (apt-get install -y chromium) or pass --browser-path"
	}
	return fmt.Sprintf("error: %s", s), ""
}
