package main

import (
	"log/slog"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// The server's registry of secrets is a root (cdpclient/secrets): the
// values of --secret-env, which every tenant's answers hide. What a tenant
// types, fills or submits is its own tenant's (the tools and the job queue
// give every context they use its tenant's registry), and hidden from its
// answers only, so that no tenant can learn by probing what another knows;
// a context no session or job claimed (a script run's) learns into the
// root. Bearer tokens never reach a page: they are concealed from logs and
// traces only (Registry.Conceal), never matched in answers.

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
