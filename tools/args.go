package tools

import (
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

// rawArguments returns a call's arguments as the client sent them.
func rawArguments(req mcp.CallToolRequest) (json.RawMessage, error) {
	if raw := req.Params.RawArguments; len(raw) > 0 {
		return raw, nil
	}
	if req.Params.Arguments == nil {
		return nil, nil
	}
	raw, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil, &cdpclient.ArgError{Msg: "arguments cannot be encoded: " + err.Error(), Hint: "send the arguments as a JSON object"}
	}
	return raw, nil
}
