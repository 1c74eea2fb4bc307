package input

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// What goes into a secret field is a secret before it reaches the page: the
// values typed, filled or keyed into one join the context's registry
// (BrowserContext.Secrets: its tenant's), so no answer, log or recording
// shows them.

// secretHint tells the model, in the answer of type and fill into a secret
// field, how the value shows from then on.
const secretHint = "a secret field: what went in shows as " + secrets.Mask + " in every answer from now on"

// noteSecret remembers values when the field e they go into holds a secret (a
// password field, one that was one, one named or marked for a password or a
// one-time code): before they reach the page, with what the page showed of
// them already (its own words, which stay as they are; see secrets.Entry).
// typed says they go in key by key. It reports whether the field holds a
// secret. shown, when not nil, is what oldText answered already (fieldState
// asks it in its own round trip).
func (p *tab) noteSecret(ctx context.Context, e *cdpclient.Element, st cdpclient.ElementState, typed bool, v string, shown *oldShown) bool {
	if !st.Secret {
		return false
	}
	var old []string
	switch needle := oldNeedle(v); {
	case shown != nil && shown.asked:
		old = shown.old
	case needle != "" && e != nil:
		if call(ctx, e, "oldText", &old, needle) != nil {
			old = nil // unknown: masked wherever it shows
		}
	}
	p.page.Context().Secrets().Enter(v, secrets.Entry{Typed: typed, Old: old})
	return true
}

// oldShown is oldText's answer from fieldState's round trip: asked is false
// when it was not asked (no secret field, no needle); old is nil when the
// answer is not known.
type oldShown struct {
	asked bool
	old   []string
}

// oldNeedle is what the page's text is searched for to find v in it: its
// longest run of ASCII letters and digits in lower case, or all of it in
// lower case when it has no run of three; "" for a value too short to keep.
func oldNeedle(v string) string {
	if utf8.RuneCountInString(v) < secrets.MinLen {
		return ""
	}
	lower := strings.ToLower(v)
	best := ""
	for _, run := range strings.FieldsFunc(lower, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if len(run) > len(best) {
			best = run
		}
	}
	if len(best) < 3 {
		return lower
	}
	return best
}

// withSecretHint adds secretHint to the answer of an action that put a
// value into a secret field.
func withSecretHint(fb *feedback.Feedback, err error, secret bool) (*feedback.Feedback, error) {
	if secret && fb != nil && fb.OK {
		if fb.Hint != "" {
			fb.Hint += "; "
		}
		fb.Hint += secretHint
	}
	return fb, err
}

// noteFieldValue remembers the whole value of a secret field after text went
// into it: with what it held before, as the page changed it.
func (p *tab) noteFieldValue(ctx context.Context, st cdpclient.ElementState, e *cdpclient.Element) {
	if !st.Secret {
		return
	}
	var v *string
	if call(ctx, e, "focusedSecret", &v) == nil && v != nil {
		p.page.Context().Secrets().Enter(*v, secrets.Entry{})
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
