package cdpclient

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// Secrets is the registry of values that must not be shown again: what was
// typed or filled into a password field of any page, and what the user marked
// secret. It is shared by every context of the browser (and with the server's
// logs and traces when Options.Secrets was given).
func (bc *BrowserContext) Secrets() *secrets.Registry { return bc.b.secrets }

// noteSecret remembers values when the field they go into holds a secret (a
// password field, one that was one, one named or marked for a password or a
// one-time code): before they reach the page.
func (p *Page) noteSecret(st elementState, values ...string) {
	if !st.Secret {
		return
	}
	for _, v := range values {
		p.bc.b.secrets.Add(v)
	}
}

// noteFieldValue remembers the whole value of a secret field after text went
// into it: with what it held before, as the page changed it.
func (p *Page) noteFieldValue(ctx context.Context, st elementState, e *Element) {
	if !st.Secret {
		return
	}
	var v *string
	if e.call(ctx, "focusedSecret", &v) == nil && v != nil {
		p.bc.b.secrets.Add(*v)
	}
}

// focusedSecret answers the value of the secret field e is (or, with e nil,
// the one that has the focus); ok is false when it is no secret field.
func (p *Page) focusedSecret(ctx context.Context, e *Element) (value string, ok bool) {
	var v *string
	if e != nil {
		if e.call(ctx, "focusedSecret", &v) != nil || v == nil {
			return "", false
		}
		return *v, true
	}
	err := p.withWorld(ctx, frameKey{frame: p.mainFrame}, func(w *worldIn) error {
		r, err := w.eval(ctx, "("+jsFunc("focusedSecret")+").call(null)", false)
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
func (p *Page) keyIntoSecret(ctx context.Context, e *Element, c chord) func() {
	before, ok := p.focusedSecret(ctx, e)
	if !ok {
		return func() {}
	}
	reg, owner := p.bc.b.secrets, "keys:"+p.ID
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

// Secrets is the registry every browser of the Manager shares.
func (m *Manager) Secrets() *secrets.Registry { return m.opts.Secrets }
