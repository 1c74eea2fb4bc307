package tools

import (
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/mark3labs/mcp-go/mcp"
)

// secretsOf is the registry results are redacted with: the configured one, else
// the browser manager's (which learns what goes into password fields).
func secretsOf(cfg Config, mgr *cdpclient.Manager) *secrets.Registry {
	if cfg.Secrets != nil || mgr == nil {
		return cfg.Secrets
	}
	return mgr.Secrets()
}

// redact hides every remembered secret in a result's text (feedback, evaluate
// results, snapshots, page content, logs, errors) before the client or the
// trace sees it. Images cannot be redacted; password fields draw dots.
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
}
