package main

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
)

// principals are the bearer tokens an HTTP server takes, each with the
// tenant it acts for: a named token's own (its jobs, profiles and artifacts
// are its own), an unnamed one's the local user's. No tokens: every request
// is the local user's.
type principals struct {
	tokens []namedToken
	// short are the tenants whose token is shorter than guessableToken
	// (tenant.Label's names), warned about at start.
	short []string
}

// guessableToken is the length under which a token is warned about: whoever
// guesses one acts as its tenant, and `openssl rand -hex 16` gives 32.
const guessableToken = 16

// warnShort warns, once logging is set up, of each token short enough to be
// guessed, by its tenant's name, never its value. Not refused: the operator
// chose it (on loopback a short one may be enough), as a short --secret-env
// value is warned about (secretsetup.go).
func (p principals) warnShort() {
	for _, name := range p.short {
		slog.Warn("an auth token is short: whoever guesses it acts as its tenant; use a long random one, e.g. openssl rand -hex 16 (see docs/security.md)",
			"tenant", name, "minimum", guessableToken)
	}
}

type namedToken struct {
	tenant string
	sum    [32]byte // SHA-256 of the token: compared in constant time, whatever its length
}

// empty reports whether no token is required.
func (p principals) empty() bool { return len(p.tokens) == 0 }

// lookup returns the tenant whose token got is. Every token is compared, so
// the time taken says nothing of which one matched or how much of it.
func (p principals) lookup(got string) (string, bool) {
	sum := sha256.Sum256([]byte(got))
	name, found := "", 0
	for _, t := range p.tokens {
		if subtle.ConstantTimeCompare(sum[:], t.sum[:]) == 1 {
			name, found = t.tenant, found+1
		}
	}
	return name, found == 1
}

// parseAuthTokens reads --auth-token values (TOKEN, or NAME=TOKEN for a
// tenant of its own) and the --auth-tokens-file (one "NAME TOKEN" or
// "NAME=TOKEN" a line, # comments). It returns the principals and every token,
// to be kept out of logs and traces.
func parseAuthTokens(values []string, file string) (principals, []string, error) {
	var (
		p      principals
		raw    []string
		names  = map[string]bool{}
		tokens = map[string]bool{}
	)
	add := func(where, name, token string) error {
		if token == "" {
			return fmt.Errorf("%s: the token is empty", where)
		}
		if strings.ContainsAny(token, " \t\r\n") {
			return fmt.Errorf("%s: a token cannot hold spaces (it travels as \"Authorization: Bearer TOKEN\")", where)
		}
		if name != tenant.Local {
			if err := tenant.Check(name); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		}
		// A tenant's name is a folder's too (tenants/NAME): names equal
		// but for case would share one on a case-insensitive disk.
		if names[strings.ToLower(name)] {
			if name == tenant.Local {
				return fmt.Errorf("%s: more than one token without a name; name them (NAME=TOKEN), each name is a tenant of its own", where)
			}
			return fmt.Errorf("%s: the name %q is given twice (names differing only in case are one: each tenant has a folder of that name)", where, name)
		}
		if tokens[token] {
			return fmt.Errorf("%s: the same token is given twice; each tenant needs a token of its own", where)
		}
		names[strings.ToLower(name)], tokens[token] = true, true
		p.tokens = append(p.tokens, namedToken{tenant: name, sum: sha256.Sum256([]byte(token))})
		if utf8.RuneCountInString(token) < guessableToken {
			p.short = append(p.short, tenant.Label(name))
		}
		raw = append(raw, token)
		return nil
	}
	for _, v := range values {
		name, token := splitNamedToken(v)
		if err := add("--auth-token", name, token); err != nil {
			return p, nil, err
		}
	}
	if file == "" {
		return p, raw, nil
	}
	f, err := openPrivateFile(file)
	if err != nil {
		return p, nil, fmt.Errorf("--auth-tokens-file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("--auth-tokens-file %s line %d", file, n)
		name, token, ok := strings.Cut(line, "=")
		if fields := strings.Fields(line); !ok || len(fields) == 2 && tenant.Check(fields[0]) == nil {
			if len(fields) != 2 {
				return p, nil, fmt.Errorf("%s: give NAME TOKEN (or NAME=TOKEN)", where)
			}
			name, token = fields[0], fields[1]
		}
		if name == "" {
			return p, nil, fmt.Errorf("%s: give NAME TOKEN; every token of the file names its tenant", where)
		}
		if err := add(where, strings.TrimSpace(name), strings.TrimSpace(token)); err != nil {
			return p, nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return p, nil, fmt.Errorf("--auth-tokens-file %s: %w", file, err)
	}
	return p, raw, nil
}

// splitNamedToken reads NAME=TOKEN; a value whose part before the first '='
// cannot name a tenant, or whose rest is only '=' (base64 padding), is a
// token without a name.
func splitNamedToken(v string) (name, token string) {
	name, token, ok := strings.Cut(v, "=")
	if !ok || tenant.Check(name) != nil || strings.Trim(token, "=") == "" {
		return tenant.Local, v
	}
	return name, token
}

// openPrivateFile opens a file that holds secrets, refusing one that others
// can read or change: a token in it would not be the owner's alone.
func openPrivateFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if safefs.PermissionBits && fi.Mode().Perm()&0o077 != 0 {
		f.Close()
		return nil, fmt.Errorf("%s can be read or changed by other users (mode %04o); run chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	if err := safefs.Owned(fi); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
