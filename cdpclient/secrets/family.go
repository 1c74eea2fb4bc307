package secrets

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"sync"
	"weak"
)

// A root and its tenants are a family. What a tenant learns is hidden from
// that tenant's answers only, so text a tenant can put on a page (evaluate,
// a page of its own) never tells it whether another tenant knows a value:
// what probing can find is at most what the tenant knows itself. The
// operator's outputs (logs, traces) are not a tenant's: they hide the values
// of the whole family (RedactAll).

// roots are the root registries of the process: what a cut anywhere (Cut)
// keeps whole, the values every tenant's answers hide.
var roots struct {
	sync.Mutex
	regs []weak.Pointer[Registry]
}

func addRoot(r *Registry) {
	roots.Lock()
	defer roots.Unlock()
	kept := roots.regs[:0]
	for _, w := range roots.regs {
		if w.Value() != nil {
			kept = append(kept, w)
		}
	}
	roots.regs = append(kept, weak.Make(r))
}

func rootMatchers() []*matcher {
	roots.Lock()
	defer roots.Unlock()
	var out []*matcher
	for _, w := range roots.regs {
		if m := w.Value().matcher(); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// family is r's root and its tenants' registries.
func (r *Registry) family() []*Registry {
	if r == nil {
		return nil
	}
	root := r
	if r.root != nil {
		root = r.root
	}
	root.mu.Lock()
	defer root.mu.Unlock()
	out := []*Registry{root}
	for _, t := range root.tenants {
		out = append(out, t)
	}
	return out
}

// Conceal remembers v to hide from what only the operator reads (RedactAll:
// logs, traces) and never from a tenant's answers: a bearer token never
// reaches a page, and masking it in answers would tell whoever writes a
// guess into a page whether it is a token. It is hidden as it is, and as a
// URL and a JSON string write it.
func (r *Registry) Conceal(v string) {
	if r == nil || v == "" {
		return
	}
	root := r
	if r.root != nil {
		root = r.root
	}
	root.mu.Lock()
	defer root.mu.Unlock()
	q, _ := json.Marshal(v)
	for _, s := range []string{v, url.QueryEscape(v), url.PathEscape(v), string(q[1 : len(q)-1])} {
		if !slices.Contains(root.concealed, s) {
			root.concealed = append(root.concealed, s)
		}
	}
}

// LenAll is the number of values the whole family knows.
func (r *Registry) LenAll() int {
	n := len(r.concealedOf())
	for _, x := range r.family() {
		x.mu.Lock()
		n += len(x.values) + len(x.pending)
		x.mu.Unlock()
	}
	return n
}

// RedactAll replaces the values of r's whole family (its root and every
// tenant) in s: for what only the operator reads (logs, traces), never for
// a tenant's answers.
func (r *Registry) RedactAll(s string) string {
	b := []byte(s)
	spans := r.allSpans(b)
	if len(spans) == 0 {
		return s
	}
	return string(mask(b, runeAligned(b, spans)))
}

// RedactAllBytes is RedactAll for a byte slice.
func (r *Registry) RedactAllBytes(b []byte) []byte {
	spans := r.allSpans(b)
	if len(spans) == 0 {
		return b
	}
	return mask(b, runeAligned(b, spans))
}

func (r *Registry) allSpans(b []byte) []span {
	var out []span
	for _, x := range r.family() {
		out = append(out, x.matcher().find(b)...)
	}
	for _, v := range r.concealedOf() {
		for i := 0; ; {
			k := bytes.Index(b[i:], []byte(v))
			if k < 0 {
				break
			}
			out = append(out, span{i + k, i + k + len(v)})
			i += k + len(v)
		}
	}
	return merge(out)
}

func (r *Registry) concealedOf() []string {
	if r == nil {
		return nil
	}
	root := r
	if r.root != nil {
		root = r.root
	}
	root.mu.Lock()
	defer root.mu.Unlock()
	return root.concealed
}
