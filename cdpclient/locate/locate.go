// Package locate describes an element as a person would find it again (its
// role and accessible name, label, placeholder, field name, the text next to
// it and, as a last resort, a CSS path) and finds the element such a
// description names on a page as it is now, or says that none or several
// match: learned scripts record the one and replay with the other. It never
// guesses: a description with a name matches only elements of that name.
//
// It is a feature on the core: it imports cdpclient's exported API and the
// door cdpclient keeps for features (Door.Run, Door.World, World.HandOutRefs,
// Element.Call), never cdpclient's internals. Its page functions are its own
// (js/locate.js) and run in cdpmcp's isolated world, where the page's own
// scripts can neither see nor change them.
package locate

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/mafredri/cdp"
)

//go:embed js/*.js
var jsFiles embed.FS

var funcs = jsfunc.Load(jsFiles, "js")

// helpers are the page functions every entry point has in its scope.
var helpers = []string{"norm", "fold", "cut", "textOf", "roleOf", "labelOf", "nameOf", "nearOf", "cssPath", "shows", "feature", "short"}

// maxFound bounds the elements a failed Find lists.
const maxFound = 8

// Description says how a person would find an element again. Role and Name
// decide; the rest tells apart elements of the same role and name (the
// visible one first). Without a name, Label, Placeholder and Field must
// match too, and CSS, a path from the closest stable id, is the last resort.
type Description struct {
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	// Field is a form control's name attribute.
	Field string `json:"field,omitempty"`
	Tag   string `json:"tag,omitempty"`
	// Type is an input's type.
	Type string `json:"type,omitempty"`
	// Near is the text next to it: its table row, its fieldset's legend,
	// or the heading it sits under.
	Near string `json:"near,omitempty"`
	CSS  string `json:"css,omitempty"`
}

// IsZero reports whether the description names nothing.
func (d Description) IsZero() bool { return d == Description{} }

// String names the element as a message would: button "Sign in" near "Sign in to Acme".
func (d Description) String() string {
	what := d.Role
	if what == "" {
		what = d.Tag
		if d.Type != "" {
			what += " type=" + d.Type
		}
	}
	switch {
	case d.Name != "":
		what += " " + strconv.Quote(d.Name)
	case d.Label != "":
		what += " labelled " + strconv.Quote(d.Label)
	case d.Field != "":
		what += " named " + strconv.Quote(d.Field)
	case d.CSS != "":
		what += " at " + d.CSS
	}
	if d.Near != "" {
		what += " near " + strconv.Quote(d.Near)
	}
	return what
}

// Described is an element's description and what a script must know of its
// value.
type Described struct {
	Description
	// Secret says the field's value is secret (a password field, one that
	// was one, one named or marked for a password or a one-time code).
	Secret bool
	// Checked is a check box's or radio button's state.
	Checked bool
}

// Describe describes the element t names on p.
func Describe(ctx context.Context, p *cdpclient.Page, t cdpclient.Target) (Described, error) {
	var out Described
	_, err := p.Door().Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		e, err := p.Resolve(ctx, t)
		if err != nil {
			return err
		}
		var r struct {
			Desc    Description `json:"desc"`
			Secret  bool        `json:"secret"`
			Checked bool        `json:"checked"`
		}
		if err := e.Call(ctx, "describe", funcs.With("describe", helpers...), &r); err != nil {
			return err
		}
		out = Described{Description: r.Desc, Secret: r.Secret, Checked: r.Checked}
		return nil
	})
	return out, err
}

// Match is the element a description named: its ref (valid as a snapshot's
// are) and its page-model line.
type Match struct {
	Ref  string
	Line string
}

// NoMatchError says a description named no element (Count 0) or several:
// Found lists what there is (of the same role, or the ones that matched).
type NoMatchError struct {
	Want  Description
	Count int
	Found []string
	More  int
}

func (e *NoMatchError) Error() string {
	var b strings.Builder
	if e.Count == 0 {
		fmt.Fprintf(&b, "no %s on the page", e.Want)
	} else {
		fmt.Fprintf(&b, "%d elements match %s: it is not clear which one", e.Count, e.Want)
	}
	if len(e.Found) == 0 {
		b.WriteString("; nothing of the kind is shown")
		return b.String()
	}
	if e.Count == 0 {
		b.WriteString("; found ")
	} else {
		b.WriteString(": ")
	}
	b.WriteString(strings.Join(e.Found, ", "))
	if e.More > 0 {
		fmt.Fprintf(&b, " and %d more", e.More)
	}
	return b.String()
}

// Find finds the one element d names on p (main frame and open shadow
// roots) and hands it a ref; none or several is a *NoMatchError.
func Find(ctx context.Context, p *cdpclient.Page, d Description) (Match, error) {
	if d.Role == "" && d.Tag == "" {
		return Match{}, cdpclient.ArgErrorf(`describe the element with a role (e.g. {"role":"button","name":"Save"}) or a tag`, "the element has no role and no tag")
	}
	var (
		m    Match
		miss *NoMatchError
	)
	door := p.Door()
	_, err := door.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		return door.World(ctx, func(w *cdpclient.World) error {
			return w.HandOutRefs(func(base int) (int, error) {
				expr, err := jsfunc.Call(funcs.With("locate", helpers...), d, base, maxFound)
				if err != nil {
					return 0, err
				}
				r, err := w.Eval(ctx, expr, true)
				if err != nil {
					return 0, err
				}
				var res struct {
					Count int      `json:"count"`
					Ref   string   `json:"ref"`
					Line  string   `json:"line"`
					Found []string `json:"found"`
					More  int      `json:"more"`
					Last  int      `json:"last"`
				}
				if err := json.Unmarshal(r.Value, &res); err != nil {
					return 0, fmt.Errorf("locate: %w", err)
				}
				if res.Count == 1 {
					m = Match{Ref: res.Ref, Line: res.Line}
				} else {
					miss = &NoMatchError{Want: d, Count: res.Count, Found: res.Found, More: res.More}
				}
				return res.Last, nil
			})
		})
	})
	if err != nil {
		return Match{}, err
	}
	if miss != nil {
		return Match{}, miss
	}
	return m, nil
}

// Facts are what a page shows of itself.
type Facts struct {
	Title string `json:"title"`
	// Heading is the first visible h1 (or h2).
	Heading string `json:"heading"`
}

// PageFacts reads p's title and first heading.
func PageFacts(ctx context.Context, p *cdpclient.Page) (Facts, error) {
	var f Facts
	err := inWorld(ctx, p, &f, "pageFacts")
	return f, err
}

// HasText reports whether p's main frame shows text; runs of digits in text
// match any number, and white space and case are folded.
func HasText(ctx context.Context, p *cdpclient.Page, text string) (bool, error) {
	var ok bool
	err := inWorld(ctx, p, &ok, "hasText", text)
	return ok, err
}

// inWorld calls page function fn in the main frame's isolated world and
// decodes its value into out.
func inWorld(ctx context.Context, p *cdpclient.Page, out any, fn string, args ...any) error {
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		r, err := d.CallInWorld(ctx, funcs.With(fn, helpers...), args...)
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil {
			return &cdpclient.Error{Code: cdpclient.CodeJSError, Msg: fn + ": " + cdpclient.ExceptionText(r.ExceptionDetails)}
		}
		return json.Unmarshal(r.Result.Value, out)
	})
	return err
}
