// Package secrets remembers values that must not be shown again (what was typed
// or filled into a password field, values the user marks secret) and redacts
// them wherever they reappear: in tool results, progress, logs, traces, job
// records and artifacts. A secret is found by undoing what the text may have
// been through on its way out (URL and form encoding as browsers write it,
// JSON and JavaScript escapes, HTML character references, Markdown escapes,
// base64, nested up to three layers, in any letter case and with its white
// space folded) rather than by listing its spellings; and a cut never leaves
// a part of one (Cut, and the part left before a "…").
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

// Registry is a set of secret values, safe for concurrent use. The zero value
// is not usable; call New. A nil *Registry redacts nothing.
type Registry struct {
	mu     sync.Mutex
	values map[string]bool
	// pending are values still being typed, by who types them (see Pending);
	// they are redacted like the others until replaced or kept.
	pending map[string]string
	m       atomic.Pointer[matcher] // nil while empty
}

// New returns an empty registry.
func New() *Registry {
	r := &Registry{values: map[string]bool{}}
	register(r)
	return r
}

// Add remembers v (and ignores one shorter than MinLen characters).
func (r *Registry) Add(v string) {
	if r == nil || utf8.RuneCountInString(v) < MinLen {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.values[v] {
		return
	}
	r.values[v] = true
	r.rebuild()
}

// Len is the number of values remembered.
func (r *Registry) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.values) + len(r.pending)
}

// Redact replaces every remembered value in s, however it is encoded, with
// Mask.
func (r *Registry) Redact(s string) string {
	m := r.matcher()
	if m == nil {
		return s
	}
	b := []byte(s)
	spans := m.find(b)
	if len(spans) == 0 {
		return s
	}
	return string(mask(b, runeAligned(b, spans)))
}

// RedactBytes is Redact for a byte slice; b is returned as is when it holds
// no secret.
func (r *Registry) RedactBytes(b []byte) []byte {
	m := r.matcher()
	if m == nil {
		return b
	}
	spans := m.find(b)
	if len(spans) == 0 {
		return b
	}
	return mask(b, runeAligned(b, spans))
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
	for _, v := range r.pending {
		values = append(values, v)
	}
	sort.Strings(values)
	r.m.Store(newMatcher(values))
}
