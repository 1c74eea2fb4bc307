// Package tenant names the principal a request acts for: whose jobs, job
// profiles and artifacts it may see. Over HTTP with named tokens
// (--auth-token NAME=TOKEN) it is the token's name; otherwise (stdio, HTTP
// without tokens or with one unnamed token) it is Local, the one user of the
// server. The HTTP guard puts it into the request's context; the job queue
// and the tools read it from there.
package tenant

import (
	"context"
	"fmt"
	"regexp"
)

// Local is the principal of a server without named tokens: its one user.
const Local = ""

type key struct{}

// With returns ctx acting for the tenant named name.
func With(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, key{}, name)
}

// Of is the tenant ctx acts for; Local when none was set.
func Of(ctx context.Context) string {
	name, _ := ctx.Value(key{}).(string)
	return name
}

var valid = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Check says whether name can name a tenant: letters, digits, '.', '_' and
// '-', at most 64, starting with a letter or digit (it names folders).
func Check(name string) error {
	if !valid.MatchString(name) {
		return fmt.Errorf("%q is not a valid tenant name: use letters, digits, '.', '_' and '-' (at most 64), starting with a letter or digit", name)
	}
	return nil
}

// Label is name as people read it: "local" for Local.
func Label(name string) string {
	if name == Local {
		return "local"
	}
	return name
}
