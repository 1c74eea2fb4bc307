package actions

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/permissions"
)

type permissionsArgs struct {
	Op          string   `json:"op" required:"true" enum:"grant,reset" desc:"reset takes all back"`
	Permissions []string `json:"permissions" desc:"to grant, e.g. geolocation, notifications, clipboard-read"`
	Origin      string   `json:"origin" desc:"default: the page's"`
	Page        string   `json:"page"`
}

// Permissions grants the session's context what a page would prompt its
// user for, or takes every grant back.
var Permissions = define("permissions", "Grant the page's origin permissions without a prompt (geolocation, notifications, clipboard-read, midi, …), or reset: take every grant back.",
	ClassAct, Hints{Idempotent: true},
	func(ctx context.Context, env *Env, a permissionsArgs) (*Result, error) {
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		switch a.Op {
		case "reset":
			kept, err := permissions.Reset(ctx, bc)
			if err != nil {
				return nil, err
			}
			if len(kept) == 0 {
				return &Result{Text: "reset: every permission granted in this session is taken back"}, nil
			}
			return &Result{Text: "reset: every permission granted in this session is taken back; the server's own (--grant-permissions) hold again: " + strings.Join(kept, ", ")}, nil
		case "grant":
		default:
			return nil, argErr(`op is grant or reset, e.g. {"op":"grant","permissions":["geolocation"]}`, "op %q is not grant or reset", a.Op)
		}
		types, err := permissions.Parse(a.Permissions, true)
		if err != nil {
			return nil, err
		}
		origin := a.Origin
		if origin == "" {
			p, err := env.Page(ctx, a.Page)
			if err != nil {
				return nil, err
			}
			origin = p.URL()
		}
		if origin, err = permissions.Origin(origin); err != nil {
			return nil, err
		}
		if err := permissions.Grant(ctx, bc, types, origin); err != nil {
			return nil, err
		}
		return &Result{Text: fmt.Sprintf("granted %s to %s in this session (reset takes them back)", strings.Join(types, ", "), origin)}, nil
	}).inGroup("emulation")
