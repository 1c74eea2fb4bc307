package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// checkTenant refuses a --tenant that names no tenant: a job submitted for a
// mistyped name would be one no MCP client can reach (a tenant is a token's
// name, given to the serve), and a status of it would only say "no such
// job". With the serve's tokens file the name must be one of its names;
// without it, one whose jobs the store holds.
func checkTenant(ctx context.Context, q *jobs.Queue, name, tokensFile string) error {
	if tokensFile != "" {
		p, _, err := parseAuthTokens(nil, tokensFile)
		if err != nil {
			return &jobs.InputError{Msg: err.Error(), Hint: "give the file the serve takes with --auth-tokens-file: one NAME TOKEN a line"}
		}
		var names []string
		for _, t := range p.tokens {
			if t.tenant != tenant.Local {
				names = append(names, t.tenant)
			}
		}
		if slices.Contains(names, name) {
			return nil
		}
		slices.Sort(names)
		return &jobs.InputError{
			Msg:  fmt.Sprintf("--tenant %q: no token of %s names this tenant%s; nothing was done", name, tokensFile, namesSaid(names, name)),
			Hint: "give the NAME of one of its NAME TOKEN lines (names are case-sensitive): a job of a tenant no token names is one no MCP client can reach",
		}
	}
	held, err := q.List(ctx, jobstore.Filter{Tenant: name, Limit: 1})
	if err != nil {
		return err
	}
	if len(held) > 0 {
		return nil
	}
	return &jobs.InputError{
		Msg: fmt.Sprintf("--tenant %q: the store holds no job of this tenant, and no --auth-tokens-file was given to check the name against the serve's tokens; nothing was done", name),
		Hint: "check the spelling (names are case-sensitive: they are the NAMEs of the serve's NAME=TOKEN tokens); for a tenant with no job yet, " +
			"pass the serve's --auth-tokens-file (or CDPMCP_AUTH_TOKENS_FILE) so the name is checked against its tokens",
	}
}

// namesSaid lists the tenants a tokens file names, for the error: the one
// differing only in case first, as the likely meaning.
func namesSaid(names []string, want string) string {
	if len(names) == 0 {
		return " (it names no tenant: its tokens act for the local user; leave --tenant out)"
	}
	for _, n := range names {
		if strings.EqualFold(n, want) {
			return fmt.Sprintf(" (did you mean %q?)", n)
		}
	}
	if len(names) > 10 {
		return fmt.Sprintf(" (it names %s and %d more)", strings.Join(names[:10], ", "), len(names)-10)
	}
	return " (it names " + strings.Join(names, ", ") + ")"
}
