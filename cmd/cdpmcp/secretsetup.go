package main

import (
	"log/slog"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
)

// The server's registry of secrets is a root (cdpclient/secrets): the
// values of --secret-env, which every tenant's answers hide. What a tenant
// types, fills or submits is its own tenant's (the tools and the job queue
// give each context its tenant's registry), and hidden from its answers
// only, so that no tenant can learn by probing what another knows. Bearer
// tokens never reach a page: they are concealed from logs and traces only
// (Registry.Conceal), never matched in answers.

// guessable is the length under which a --secret-env value may be guessed:
// a client that writes an exact guess into a page sees it come back masked.
const guessable = 12

// addSecretEnv adds the value of the --secret-env variable name, warning
// when it is short enough to be guessed whole.
func addSecretEnv(root *secrets.Registry, name, v string) {
	root.Add(v)
	if utf8.RuneCountInString(v) < guessable {
		slog.Warn("a --secret-env value is short: a client that writes an exact guess of it into a page sees the guess masked; use a long random value (see docs/security.md)",
			"variable", name, "characters", utf8.RuneCountInString(v))
	}
}

// browserSecrets is the registry the browser's contexts learn into until
// the tools or the job queue give one its tenant's: the local user's.
func browserSecrets(root *secrets.Registry) *secrets.Registry { return root.Tenant(tenant.Local) }
