package tools

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// IsToolCallRequest reports whether a JSON-RPC message is a tools/call
// request: one the server answers, the messages callsAnswered counts. A
// transport that must know when the calls it read have been answered
// (stdio, at the end of its input) counts the same ones.
func IsToolCallRequest(msg []byte) bool {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		ID      any             `json:"id"`
		Result  json.RawMessage `json:"result"`
	}
	return json.Unmarshal(msg, &m) == nil && m.JSONRPC == mcp.JSONRPC_VERSION &&
		m.Method == string(mcp.MethodToolsCall) && m.ID != nil && m.Result == nil
}

// callsAnswered counts the tool call requests the server has answered (a
// result, or an error such as an unknown tool).
type callsAnswered struct {
	mu      sync.Mutex
	n       int64
	changed chan struct{} // closed and replaced on each count
}

// hook counts the answers mcp-go's hooks see.
func (c *callsAnswered) hook(hooks *server.Hooks) {
	hooks.AddAfterCallTool(func(context.Context, any, *mcp.CallToolRequest, any) { c.add() })
	hooks.AddOnError(func(_ context.Context, _ any, method mcp.MCPMethod, _ any, _ error) {
		if method == mcp.MethodToolsCall {
			c.add()
		}
	})
}

func (c *callsAnswered) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
}

// wait waits until n calls have been answered, or ctx ends; it reports
// whether they had.
func (c *callsAnswered) wait(ctx context.Context, n int64) bool {
	for {
		c.mu.Lock()
		if c.n >= n {
			c.mu.Unlock()
			return true
		}
		if c.changed == nil {
			c.changed = make(chan struct{})
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// WaitCallsAnswered waits until n tool call requests (as IsToolCallRequest
// tells them) have been answered, or ctx ends; it reports whether they had.
// A transport whose input ended after n calls waits so, within the
// shutdown's grace, before the shutdown refuses calls not yet begun and
// stops those still running: a call read just before stdin closed runs
// rather than being answered "not run".
func (s *Server) WaitCallsAnswered(ctx context.Context, n int64) bool {
	return s.answered.wait(ctx, n)
}
