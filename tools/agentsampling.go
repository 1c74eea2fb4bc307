package tools

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// samplingProvider names the client's model in errors and records.
const samplingProvider = "the client's model (sampling)"

// samplingModel asks the client's own model with sampling/createMessage,
// within the tools/call request (clients on protocols before 2026-07-28, and
// in-process clients).
type samplingModel struct {
	srv     *server.MCPServer
	timeout time.Duration
}

var _ agentloop.Model = (*samplingModel)(nil)

// Complete sends one sampling request and waits for the answer, at most the
// timeout. It is not retried: the client may have asked its user to approve it.
func (m *samplingModel) Complete(ctx context.Context, p agentloop.Prompt) (*agentloop.Answer, error) {
	tctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	//lint:ignore SA1019 the multi-round-trip form replaces it only for clients on 2026-07-28; the others need this, and mcp-go's bridge caps a run at 10 model calls
	res, err := m.srv.RequestSampling(tctx, mcp.CreateMessageRequest{
		Request:             mcp.Request{Method: string(mcp.MethodSamplingCreateMessage)},
		CreateMessageParams: samplingParams(p),
	})
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		return nil, &agentloop.ModelError{Provider: samplingProvider, Attempts: 1,
			Err: fmt.Errorf("no answer within %s (over HTTP the client must keep its GET stream open to receive sampling requests)", m.timeout)}
	case err != nil:
		return nil, &agentloop.ModelError{Provider: samplingProvider, Attempts: 1, Err: err}
	}
	return samplingAnswer(res)
}

// samplingParams renders a prompt as a sampling request: the system prompt,
// and one user message holding the text and, with vision, the screenshot.
func samplingParams(p agentloop.Prompt) mcp.CreateMessageParams {
	var content any = mcp.NewTextContent(p.User)
	if p.Image != nil {
		content = []mcp.Content{mcp.NewTextContent(p.User),
			mcp.NewImageContent(base64.StdEncoding.EncodeToString(p.Image.Data), p.Image.MIME)}
	}
	return mcp.CreateMessageParams{
		Messages:       []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: content}},
		SystemPrompt:   p.System,
		IncludeContext: "none",
		MaxTokens:      p.MaxTokens,
	}
}

// samplingAnswer reads the text of a sampling result, whatever shape its
// content arrived in.
func samplingAnswer(res *mcp.CreateMessageResult) (*agentloop.Answer, error) {
	if res == nil {
		return nil, &agentloop.ModelError{Provider: samplingProvider, Attempts: 1, Err: errors.New("the client returned no result")}
	}
	text := contentText(res.Content)
	if strings.TrimSpace(text) == "" {
		return nil, &agentloop.ModelError{Provider: samplingProvider, Attempts: 1, Err: errors.New("the client's model answered with no text")}
	}
	return &agentloop.Answer{Text: text, Model: res.Model}, nil
}

func contentText(c any) string {
	switch v := c.(type) {
	case mcp.TextContent:
		return v.Text
	case *mcp.TextContent:
		return v.Text
	case string:
		return v
	case map[string]any:
		if t, ok := v["text"].(string); ok && v["type"] == "text" {
			return t
		}
	case []mcp.Content:
		var b strings.Builder
		for _, part := range v {
			b.WriteString(contentText(part))
		}
		return b.String()
	case []any:
		var b strings.Builder
		for _, part := range v {
			b.WriteString(contentText(part))
		}
		return b.String()
	}
	return ""
}
