package tools

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// IsToolCallRequest reports whether a JSON-RPC message is a tools/call
// request: one the server answers, the messages callsBegun counts. A
// transport that must know when the calls it read have reached the server
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

// callsBegun counts the tool call requests that have reached the server
// (each then runs, or is answered why not).
type callsBegun struct {
	mu      sync.Mutex
	n       int64
	changed chan struct{} // closed and replaced on each count
}

func (c *callsBegun) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
}

// wait waits until n calls have begun, or ctx ends; it reports whether they had.
func (c *callsBegun) wait(ctx context.Context, n int64) bool {
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

// WaitCallsBegun waits until n tool call requests (as IsToolCallRequest
// tells them) have reached the server, or ctx ends; it reports whether they
// had. A transport that read n calls waits so before a shutdown, which
// refuses calls that have not begun: a call read just before stdin closed
// runs rather than being answered "not run".
func (s *Server) WaitCallsBegun(ctx context.Context, n int64) bool { return s.begun.wait(ctx, n) }
