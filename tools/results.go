package tools

import (
	"context"
	"errors"

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

// describe gives an error's message and the hint that goes with it: bad
// arguments as they are, anything else as cdpclient classifies it.
func describe(err error) (msg, hint string) {
	var cae *cdpclient.ArgError
	if errors.As(err, &cae) {
		return cae.Msg, cae.Hint
	}
	c := cdpclient.Classify(err)
	return c.Code.String() + ": " + c.Msg, c.Hint
}
