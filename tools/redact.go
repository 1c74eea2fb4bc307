package tools

import (
	"context"
	"path/filepath"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/mark3labs/mcp-go/mcp"
)

// Everything the server tells a client passes its tenant's registry on its
// way: tool results (their text and their structuredContent), progress
// notifications and the questions it asks a person. A tenant's registry
// holds what that tenant typed, filled or submitted and what a person typed
// in its live view, and the root's values (--secret-env); never another
// tenant's, so no text a client writes into a page can tell it what another
// tenant knows.

// secretsOf is the registry family results are redacted with: the
// configured one, else the browser manager's (which learns what goes into
// password fields).
func secretsOf(cfg Config, mgr *cdpclient.Manager) *secrets.Registry {
	if cfg.Secrets != nil || mgr == nil {
		return cfg.Secrets
	}
	return mgr.Secrets()
}

// secretsFor is the registry of the tenant ctx acts for.
func (s *Server) secretsFor(ctx context.Context) *secrets.Registry {
	return s.secrets.Tenant(tenant.Of(ctx))
}

// envFor is what the calling tenant's actions run against: the server's
// Env, with the tenant's registry for the files they write (recordings,
// audit reports) and, for a named tenant, its own folder in the artifacts
// folder (tenants/NAME, as its jobs' artifacts): its reports and
// recordings go there, and the files it names (storage states, PDFs,
// uploads) are its own (actions/ownfiles.go).
func (s *Server) envFor(ctx context.Context) *actions.Env {
	env := *s.env
	env.Secrets = s.secretsFor(ctx)
	if t := tenant.Of(ctx); t != tenant.Local {
		root := env.Artifacts
		if root == "" {
			root = actions.DefaultArtifactsDir()
		}
		env.Home = filepath.Join(root, "tenants", t)
		env.Artifacts = env.Home
	}
	return &env
}

// redact hides every remembered secret in a result (feedback, evaluate
// results, snapshots, page content, logs, errors, a job's status) before the
// client or the trace sees it: its text, after it was formatted, and its
// structured content. Images cannot be redacted; password fields draw dots.
// The registry keeps the text it gave out (Saw): a value entered later
// stands there as the page's own word, not an echo (secrets/history.go).
func redact(reg *secrets.Registry, res *mcp.CallToolResult) {
	if res == nil {
		return
	}
	known := reg.Len() > 0
	for i, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			if known {
				tc.Text = reg.Redact(tc.Text)
				res.Content[i] = tc
			}
			reg.Saw(tc.Text)
		}
	}
	if !known {
		return
	}
	if res.StructuredContent != nil {
		res.StructuredContent = reg.RedactValue(res.StructuredContent)
	}
}

// notify sends the calling client a notification, its params redacted.
func (s *Server) notify(ctx context.Context, method string, params map[string]any) error {
	if v, ok := s.secretsFor(ctx).RedactValue(params).(map[string]any); ok {
		params = v
	}
	return s.mcp.SendNotificationToClient(ctx, method, params)
}
