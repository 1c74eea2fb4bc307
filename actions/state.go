package actions

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/cdpclient/state"
)

// readOnlyRefusal answers an operation that changes state in read-only mode.
func readOnlyRefusal(act, op string) *Result {
	return permission(act, "read-only mode does not "+op, "only reading is allowed here")
}

type cookiesArgs struct {
	Op       string  `json:"op" required:"true" enum:"list,get,set,delete,clear"`
	Name     string  `json:"name" desc:"cookie name (get, set, delete)"`
	Value    string  `json:"value" desc:"for set"`
	URL      string  `json:"url" desc:"for set: the site it belongs to"`
	Domain   string  `json:"domain" desc:"for set or delete, instead of url"`
	Path     string  `json:"path" desc:"default /"`
	Expires  float64 `json:"expires" desc:"Unix seconds; default: a session cookie"`
	HTTPOnly bool    `json:"httpOnly" desc:"hidden from page scripts"`
	Secure   bool    `json:"secure" desc:"HTTPS only"`
	SameSite string  `json:"sameSite" enum:"Strict,Lax,None"`
}

// Cookies lists and changes the session's cookies.
var Cookies = define("cookies", "List, get, set, delete or clear this session's cookies (all sites).",
	ClassRead, Hints{Destructive: true, OpenWorld: false},
	func(ctx context.Context, env *Env, a cookiesArgs) (*Result, error) {
		if err := require("op", a.Op, `{"op":"list"}`); err != nil {
			return nil, err
		}
		if env.ReadOnly && a.Op != "list" && a.Op != "get" {
			return readOnlyRefusal("cookies", a.Op+" cookies"), nil
		}
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		switch a.Op {
		case "list", "get":
			if a.Op == "get" && a.Name == "" {
				return nil, argErr(`for example {"op":"get","name":"session"}`, "get needs a name")
			}
			all, err := state.Cookies(ctx, bc)
			if err != nil {
				return nil, err
			}
			var lines []string
			for _, c := range all {
				if a.Name == "" || c.Name == a.Name {
					lines = append(lines, cookieLine(c))
				}
			}
			if len(lines) == 0 {
				return &Result{Text: "no cookies" + strings.TrimSuffix(" named "+a.Name, " named ")}, nil
			}
			return &Result{Text: strings.Join(lines, "\n")}, nil
		case "set":
			c := state.Cookie{Name: a.Name, Value: a.Value, Domain: a.Domain, Path: a.Path, Expires: a.Expires,
				HTTPOnly: a.HTTPOnly, Secure: a.Secure, SameSite: a.SameSite}
			if err := state.SetCookies(ctx, bc, []state.Cookie{c}, a.URL); err != nil {
				return nil, err
			}
			return &Result{Text: "set cookie " + a.Name}, nil
		case "delete", "clear":
			if a.Op == "delete" && a.Name == "" {
				return nil, argErr(`for example {"op":"delete","name":"session"}`, "delete needs a name")
			}
			n, err := state.DeleteCookies(ctx, bc, a.Name, a.Domain)
			if err != nil {
				return nil, err
			}
			return &Result{Text: fmt.Sprintf("removed %d cookies", n)}, nil
		}
		return nil, argErr("use list, get, set, delete or clear", "op %q is not known", a.Op)
	}).inGroup("storage").describe("op", "what to do").describe("sameSite", "for set").
	inReadOnly("List or get this session's cookies (all sites).", Hints{ReadOnly: true, Idempotent: true})

// cookieLine renders a cookie on one line; long values are cut.
func cookieLine(c state.Cookie) string {
	v := c.Value
	if len(v) > 100 {
		v = v[:secrets.Cut(v, 100)] + "…"
	}
	s := fmt.Sprintf("%s=%s; domain=%s; path=%s", c.Name, v, c.Domain, c.Path)
	if c.Expires > 0 {
		s += "; expires=" + time.Unix(int64(c.Expires), 0).UTC().Format(time.RFC3339)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{c.HTTPOnly, "httpOnly"}, {c.Secure, "secure"}} {
		if f.on {
			s += "; " + f.name
		}
	}
	if c.SameSite != "" {
		s += "; sameSite=" + c.SameSite
	}
	return s
}

type webStorageArgs struct {
	Op    string `json:"op" required:"true" enum:"list,get,set,delete,clear"`
	Kind  string `json:"kind" enum:"local,session" desc:"default local"`
	Key   string `json:"key" desc:"get, set, delete"`
	Value string `json:"value" desc:"for set"`
	Page  string `json:"page"`
}

// WebStorage lists and changes the page's localStorage or sessionStorage.
var WebStorage = define("webStorage", "List, get, set, delete or clear the page's localStorage (or sessionStorage) for its origin.",
	ClassRead, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a webStorageArgs) (*Result, error) {
		if err := require("op", a.Op, `{"op":"list"}`); err != nil {
			return nil, err
		}
		if env.ReadOnly && a.Op != "list" && a.Op != "get" {
			return readOnlyRefusal("webStorage", a.Op+" storage"), nil
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		r, err := state.WebStorage(ctx, p, a.Kind, a.Op, a.Key, a.Value)
		if err != nil {
			return nil, err
		}
		kind := "localStorage"
		if a.Kind == "session" {
			kind = "sessionStorage"
		}
		switch {
		case r.Missing:
			return &Result{Text: fmt.Sprintf("%s of %s has no %q", kind, r.Origin, a.Key)}, nil
		case a.Op == "list" || a.Op == "get":
			if len(r.Entries) == 0 {
				return &Result{Text: kind + " of " + r.Origin + " is empty"}, nil
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%s of %s:", kind, r.Origin)
			for _, e := range r.Entries {
				fmt.Fprintf(&b, "\n%s=%s", e[0], capText(e[1], ""))
			}
			return &Result{Text: capText(b.String(), "get one key at a time")}, nil
		}
		return &Result{Text: fmt.Sprintf("%s of %s: %s done, %d items", kind, r.Origin, a.Op, r.Length)}, nil
	}).inGroup("storage").describe("op", "what to do").
	inReadOnly("List or get the page's localStorage (or sessionStorage).", Hints{ReadOnly: true, Idempotent: true, OpenWorld: true})

type storageStateArgs struct {
	Op   string `json:"op" required:"true" enum:"save,load"`
	Path string `json:"path" required:"true" desc:"a .json file on the server's machine"`
}

// StorageState saves the session's sign-ins to a file, or loads them.
var StorageState = define("storageState", "Save this session's cookies and localStorage (of the origins its tabs show) to a JSON file, or load such a file (Playwright's format), to stay signed in.",
	ClassRead, Hints{Destructive: true},
	func(ctx context.Context, env *Env, a storageStateArgs) (*Result, error) {
		if err := require("path", a.Path, `{"op":"save","path":"/tmp/state.json"}`); err != nil {
			return nil, err
		}
		if !strings.EqualFold(filepath.Ext(a.Path), ".json") {
			return nil, argErr("give a path ending in .json", "%q is not a .json file", a.Path)
		}
		hint := env.homeHint("state.json", "states are saved in and loaded from")
		path, ok := env.ownPath(a.Path)
		if !ok {
			return nil, notOwn("storage state", a.Path, hint)
		}
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		switch a.Op {
		case "save":
			st, err := state.Save(ctx, bc)
			if err != nil {
				return nil, err
			}
			if err := env.homeReady(); err != nil {
				return nil, err
			}
			if err := state.WriteFile(path, st); err != nil {
				if env.Home != "" {
					return nil, argErr(hint, "storage state %q: cannot be written in your folder: %v", a.Path, err)
				}
				return nil, &cdpclient.ArgError{Msg: err.Error(), Hint: "give a path in a folder that exists and can be written"}
			}
			return &Result{Text: fmt.Sprintf("saved %d cookies and the localStorage of %d origins to %s", len(st.Cookies), len(st.Origins), env.shownPath(path))}, nil
		case "load":
			if env.ReadOnly {
				return readOnlyRefusal("storageState", "load a storage state"), nil
			}
			st, err := state.ReadFile(path)
			if err != nil {
				if env.Home != "" && errors.Is(err, fs.ErrNotExist) {
					return nil, noSuchFile("storage state", a.Path, hint)
				}
				return nil, &cdpclient.ArgError{Msg: err.Error(), Hint: "give the path of a file storageState saved"}
			}
			if err := state.Load(ctx, bc, st); err != nil {
				return nil, err
			}
			return &Result{Text: fmt.Sprintf("loaded %d cookies and the localStorage of %d origins from %s", len(st.Cookies), len(st.Origins), a.Path)}, nil
		}
		return nil, argErr("use save or load", "op %q is not known", a.Op)
	}).inGroup("storage").describe("op", "save to or load from path").
	inReadOnly("Save this session's cookies and localStorage to a JSON file.", Hints{Idempotent: true})
