package cdpclient

import (
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// Secrets is the registry of values that must not be shown again: what was
// typed or filled into a password field of any page, and what the user marked
// secret. It is shared by every context of the browser (and with the server's
// logs and traces when Options.Secrets was given).
func (bc *BrowserContext) Secrets() *secrets.Registry { return bc.b.secrets }

// Secrets is the registry every browser of the Manager shares.
func (m *Manager) Secrets() *secrets.Registry { return m.opts.Secrets }
