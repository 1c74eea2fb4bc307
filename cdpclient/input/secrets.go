package input

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// What goes into a secret field is a secret before it reaches the page: the
// values typed, filled or keyed into one join the browser's registry
// (BrowserContext.Secrets), so no answer, log or recording shows them.

// noteSecret remembers values when the field they go into holds a secret (a
// password field, one that was one, one named or marked for a password or a
// one-time code): before they reach the page.
func (p *tab) noteSecret(st cdpclient.ElementState, values ...string) {
	if !st.Secret {
		return
	}
	for _, v := range values {
		p.page.Context().Secrets().Add(v)
	}
}

// noteFieldValue remembers the whole value of a secret field after text went
// into it: with what it held before, as the page changed it.
func (p *tab) noteFieldValue(ctx context.Context, st cdpclient.ElementState, e *cdpclient.Element) {
	if !st.Secret {
		return
	}
	var v *string
	if call(ctx, e, "focusedSecret", &v) == nil && v != nil {
		p.page.Context().Secrets().Add(*v)
	}
}

// focusedSecret answers the value of the secret field e is (or, with e nil,
// the one that has the focus); ok is false when it is no secret field.
func (p *tab) focusedSecret(ctx context.Context, e *cdpclient.Element) (value string, ok bool) {
	var v *string
	if e != nil {
		if call(ctx, e, "focusedSecret", &v) != nil || v == nil {
			return "", false
		}
		return *v, true
	}
	err := p.d.World(ctx, func(w *cdpclient.World) error {
		r, err := w.Eval(ctx, "("+funcs.Func("focusedSecret")+").call(null)", false)
		if err != nil {
			return err
		}
		return json.Unmarshal(r.Value, &v)
	})
	if err != nil || v == nil {
		return "", false
	}
	return *v, true
}

// keyIntoSecret follows a key pressed into a secret field: the value it
// will hold is a secret before the key reaches the page, the value it holds
// after replaces it, and a key that ends the entry (Enter, Tab) keeps it.
// It returns what to call once the key was pressed.
func (p *tab) keyIntoSecret(ctx context.Context, e *cdpclient.Element, c chord) func() {
	before, ok := p.focusedSecret(ctx, e)
	if !ok {
		return func() {}
	}
	reg, owner := p.page.Context().Secrets(), "keys:"+p.page.ID
	if c.key.Text != "" && c.mods&(modCtrl|modAlt|modMeta) == 0 {
		text := c.key.Text
		if c.mods&modShift != 0 && c.key.Shifted != "" {
			text = c.key.Shifted
		}
		reg.Typing(owner, before+text)
	}
	return func() {
		if after, ok := p.focusedSecret(ctx, e); ok {
			reg.Typing(owner, after)
		}
		switch c.key.Key {
		case "Enter", "Tab", "Escape":
			reg.Keep(owner)
		}
	}
}
