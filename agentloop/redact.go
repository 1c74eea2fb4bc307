package agentloop

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// Redacted is m with reg's secrets masked in every prompt it is sent: what a
// page shows (a --secret-env value it echoes, a password typed into it) is
// hidden from the model's provider, or from the MCP client that samples for
// the run, as it is from a tool's answer. Images are sent as they are. A nil
// reg leaves m as it is.
func Redacted(m Model, reg *secrets.Registry) Model {
	if reg == nil || m == nil {
		return m
	}
	if r, ok := m.(redactedModel); ok && r.reg == reg {
		return m
	}
	return redactedModel{m: m, reg: reg}
}

type redactedModel struct {
	m   Model
	reg *secrets.Registry
}

func (r redactedModel) Complete(ctx context.Context, p Prompt) (*Answer, error) {
	p.System = r.reg.Redact(p.System)
	p.User = r.reg.Redact(p.User)
	return r.m.Complete(ctx, p)
}
