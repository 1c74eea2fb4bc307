package cdpclient

import (
	"sync/atomic"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// secretsKey keeps a context's own registry (ContextDoor.Slot).
type secretsKey struct{}

func (bc *BrowserContext) secretsSlot() *atomic.Pointer[secrets.Registry] {
	return bc.Door().Slot(secretsKey{}, func() any { return &atomic.Pointer[secrets.Registry]{} }).(*atomic.Pointer[secrets.Registry])
}

// Secrets is the registry of values that must not be shown again in what
// this context's user reads: what was typed or filled into a password field
// of its pages, what a person typed in its live view. It is the one UseSecrets
// gave (the context's tenant's), else the browser's (Options.Secrets).
func (bc *BrowserContext) Secrets() *secrets.Registry {
	if r := bc.secretsSlot().Load(); r != nil {
		return r
	}
	return bc.b.secrets
}

// UseSecrets makes r the context's registry: the tenant whose context it is
// learns what goes into its password fields, and no other tenant's answers
// are redacted with it. Call it before the context is used.
func (bc *BrowserContext) UseSecrets(r *secrets.Registry) {
	if r != nil {
		bc.secretsSlot().Store(r)
	}
}

// Secrets is the registry browsers of the Manager learn into by default.
func (m *Manager) Secrets() *secrets.Registry { return m.opts.Secrets }
