// Package secrets remembers values that must not be shown again (what was
// typed or filled into a password field, values the user marks secret) and
// redacts them wherever they reappear: in tool results, progress, logs,
// traces, job records and artifacts.
//
// A secret is found by undoing what the text may have been through on its
// way out (URL and form encoding as browsers write it, JSON and JavaScript
// escapes, HTML character references, Markdown escapes, quoted-printable,
// CSS and octal escapes, base64 in any alignment, hex, base32, UTF-16, up
// to three layers in any order and wherever a run starts, in any letter
// case, with compatibility forms folded, characters that draw nothing left
// out and white space folded) rather than by listing its spellings.
//
// Redaction is never an oracle: a registry is a tenant's (Tenant), and what
// one tenant's answers are redacted with is that tenant's values and the
// root's (the operator's, every tenant's answers hide them) only; only whole
// values are matched, save the start of a value cdpmcp typed key by key and
// the part of one a cut cdpmcp made left (Cut). And never a vandal: a value
// entered into a page that showed it already stays where it stands in the
// page's own words (Enter), and cdpmcp's own markup is never rewritten.
package secrets

import (
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// MinLen is the shortest value remembered: shorter ones would shred ordinary
// text wherever their letters occur.
const MinLen = 4

// Mask replaces a secret.
const Mask = "[secret]"

// Registry is a set of secret values, safe for concurrent use. New makes a
// root: its values are hidden from every tenant's answers (the operator's,
// --secret-env); Tenant makes a tenant's, which hides its own values and its
// root's. The zero value is not usable. A nil *Registry redacts nothing.
type Registry struct {
	root *Registry // a tenant's; nil for a root

	mu      sync.Mutex
	values  map[string]*entry
	pending map[string]string // values still being typed, by who types them (pending.go)
	tenants map[string]*Registry
	// concealed are a root's values hidden from the operator's outputs only
	// (Conceal).
	concealed []string
	m         atomic.Pointer[matcher] // nil while empty
	// seen are the answers given out lately (history.go).
	seen history
}

// entry is how a value came to be known.
type entry struct {
	// typed: cdpmcp (or a person in the live view) typed it key by key, so
	// the page saw its start on the way.
	typed bool
	// plain: known otherwise than by being entered into a page (added):
	// masked wherever it shows, the page's words or not.
	plain bool
	// old is the text the page showed before the value was entered there
	// (Enter): where the value stands in the same words, it is the page's.
	old []string
}

// New returns an empty root registry.
func New() *Registry {
	r := &Registry{values: map[string]*entry{}}
	addRoot(r)
	return r
}

// Tenant returns the registry of the tenant named name in r's family (made
// on first use): what that tenant learns, hidden from its own answers only,
// besides the root's values. Called on a tenant's registry, it answers its
// root's tenant of that name.
func (r *Registry) Tenant(name string) *Registry {
	if r == nil {
		return nil
	}
	root := r
	if r.root != nil {
		root = r.root
	}
	root.mu.Lock()
	defer root.mu.Unlock()
	if t := root.tenants[name]; t != nil {
		return t
	}
	if root.tenants == nil {
		root.tenants = map[string]*Registry{}
	}
	t := &Registry{root: root, values: map[string]*entry{}}
	root.tenants[name] = t
	return t
}

// Add remembers v (and ignores one shorter than MinLen characters); it is
// masked wherever it shows.
func (r *Registry) Add(v string) {
	r.remember(v, entry{plain: true})
}

// remember adds v as e says, or joins e to what is known of v: a value once
// known plainly stays so; old texts add up.
func (r *Registry) remember(v string, e entry) {
	if r == nil || utf8.RuneCountInString(v) < MinLen {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if was, ok := r.values[v]; ok {
		if was.plain || (was.typed || !e.typed) && len(e.old) == 0 {
			if e.typed && !was.typed {
				was.typed = true
				r.rebuild()
			}
			return
		}
		// Old texts add up once each: a value entered again and again
		// (each type call enters it more than once, with the lines of past
		// answers that hold it) does not grow them.
		seen := make(map[string]bool, len(was.old))
		merged := append([]string{}, was.old...)
		for _, u := range was.old {
			seen[u] = true
		}
		for _, u := range e.old {
			if !seen[u] {
				seen[u] = true
				merged = append(merged, u)
			}
		}
		if len(merged) == len(was.old) && (was.typed || !e.typed) && was.old != nil {
			return
		}
		e.typed = e.typed || was.typed
		e.old = merged
	}
	r.values[v] = &e
	r.rebuild()
}

// Len is the number of values remembered, the root's included.
func (r *Registry) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	n := len(r.values) + len(r.pending)
	r.mu.Unlock()
	if r.root != nil {
		n += r.root.Len()
	}
	return n
}

// Redact replaces every remembered value in s (the root's too), however it
// is encoded, with Mask.
func (r *Registry) Redact(s string) string {
	if r == nil {
		return s
	}
	b := []byte(s)
	spans := r.spans(b)
	if len(spans) == 0 {
		return s
	}
	return string(mask(b, runeAligned(b, spans)))
}

// RedactBytes is Redact for a byte slice; b is returned as is when it holds
// no secret.
func (r *Registry) RedactBytes(b []byte) []byte {
	if r == nil {
		return b
	}
	spans := r.spans(b)
	if len(spans) == 0 {
		return b
	}
	return mask(b, runeAligned(b, spans))
}

// spans are where text holds r's values or its root's.
func (r *Registry) spans(text []byte) []span {
	out := r.matcher().find(text)
	if r.root != nil {
		if more := r.root.matcher().find(text); len(more) > 0 {
			out = merge(append(out, more...))
		}
	}
	return out
}

func (r *Registry) matcher() *matcher {
	if r == nil {
		return nil
	}
	return r.m.Load()
}

// rebuild makes the matcher of every value; r.mu is held.
func (r *Registry) rebuild() {
	values := make([]string, 0, len(r.values)+len(r.pending))
	for v := range r.values {
		values = append(values, v)
	}
	sort.Strings(values)
	entries := make([]known, 0, len(values)+len(r.pending))
	for _, v := range values {
		entries = append(entries, known{v, *r.values[v]})
	}
	owners := make([]string, 0, len(r.pending))
	for o := range r.pending {
		owners = append(owners, o)
	}
	sort.Strings(owners)
	for _, o := range owners {
		entries = append(entries, known{r.pending[o], entry{plain: true}})
	}
	r.m.Store(newMatcher(entries))
}

// known is a value and how it is known.
type known struct {
	v string
	e entry
}
