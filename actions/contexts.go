package actions

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// DefaultContext names the caller's own browser context among its named ones.
const DefaultContext = "default"

// Contexts keeps a caller's named browser contexts besides its own (the MCP
// layer keeps them per session). The current one is where actions run.
type Contexts interface {
	// Named lists the caller's contexts, "default" first, and the current one.
	Named(ctx context.Context) (names []string, current string)
	// Use makes the named context current, creating it (isolated: own
	// cookies, storage, tabs and downloads) when create is set.
	Use(ctx context.Context, name string, create bool) (*cdpclient.BrowserContext, error)
	// Drop closes a named context and its tabs; the default one is current
	// again if it was current.
	Drop(ctx context.Context, name string) error
}

type contextsArgs struct {
	Op   string `json:"op" required:"true" enum:"list,new,use,close"`
	Name string `json:"name" desc:"context name; default is the session's own"`
}

// ContextsAction creates and switches between named isolated contexts.
var ContextsAction = define("contexts", "Named isolated browser contexts (own cookies, storage, tabs): list, new (and switch to it), use, close. Every other tool acts in the current one.",
	ClassNavigate, Hints{Destructive: true},
	func(ctx context.Context, env *Env, a contextsArgs) (*Result, error) {
		if env.Contexts == nil {
			return nil, argErr("use one context here", "named contexts are not offered here")
		}
		if err := require("op", a.Op, `{"op":"new","name":"alice"}`); err != nil {
			return nil, err
		}
		if a.Op != "list" && strings.TrimSpace(a.Name) == "" {
			return nil, argErr(fmt.Sprintf(`for example {"op":%q,"name":"alice"}`, a.Op), "%s needs a name", a.Op)
		}
		switch a.Op {
		case "list":
		case "new", "use":
			if a.Op == "new" && a.Name == DefaultContext {
				return nil, argErr(`use {"op":"use","name":"default"}`, "the default context exists already")
			}
			if _, err := env.Contexts.Use(ctx, a.Name, a.Op == "new"); err != nil {
				return nil, err
			}
		case "close":
			if env.ReadOnly {
				return readOnlyRefusal("contexts", "close contexts (their tabs would close)"), nil
			}
			if err := env.Contexts.Drop(ctx, a.Name); err != nil {
				return nil, err
			}
		default:
			return nil, argErr("use list, new, use or close", "op %q is not known", a.Op)
		}
		names, cur := env.Contexts.Named(ctx)
		var b strings.Builder
		for _, n := range names {
			mark := " "
			if n == cur {
				mark = "*"
			}
			fmt.Fprintf(&b, "%s %s\n", mark, n)
		}
		return &Result{Text: strings.TrimSuffix(b.String(), "\n")}, nil
	}).inGroup("storage").describe("op", "what to do").
	inReadOnly("Named isolated browser contexts (own cookies, storage, tabs): list, new (and switch to it), use. Every other tool acts in the current one.", Hints{})
