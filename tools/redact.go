package tools

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/mark3labs/mcp-go/mcp"
)

// Everything the server tells a client passes the one registry on its way:
// tool results (their text and their structuredContent), progress
// notifications and the questions it asks a person.

// secretsOf is the registry results are redacted with: the configured one, else
// the browser manager's (which learns what goes into password fields).
func secretsOf(cfg Config, mgr *cdpclient.Manager) *secrets.Registry {
	if cfg.Secrets != nil || mgr == nil {
		return cfg.Secrets
	}
	return mgr.Secrets()
}

// redact hides every remembered secret in a result (feedback, evaluate
// results, snapshots, page content, logs, errors, a job's status) before the
// client or the trace sees it: its text, after it was formatted, and its
// structured content. Images cannot be redacted; password fields draw dots.
func redact(reg *secrets.Registry, res *mcp.CallToolResult) {
	if res == nil || reg.Len() == 0 {
		return
	}
	for i, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			tc.Text = reg.Redact(tc.Text)
			res.Content[i] = tc
		}
	}
	if res.StructuredContent != nil {
		res.StructuredContent = reg.RedactValue(res.StructuredContent)
	}
}

// notify sends the calling client a notification, its params redacted.
func (s *Server) notify(ctx context.Context, method string, params map[string]any) error {
	if v, ok := s.secrets.RedactValue(params).(map[string]any); ok {
		params = v
	}
	return s.mcp.SendNotificationToClient(ctx, method, params)
}
