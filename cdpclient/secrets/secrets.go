// Package secrets remembers values that must not be shown again (what was typed
// or filled into a password field, values the user marks secret) and redacts
// them by value wherever they reappear: in tool results, logs, traces and
// artifacts, in the spellings they take there (JSON strings, escaped twice,
// URL-encoded form data, HTML text).
package secrets

import (
	"encoding/json"
	"html"
	"net/url"
	"sort"
	"strings"
	"sync"
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
	mu     sync.RWMutex
	values map[string]bool
	// pending are values still being typed, by who types them (see Pending);
	// they are redacted like the others until replaced or kept.
	pending map[string]string
	repl    *strings.Replacer // nil while empty
}

// New returns an empty registry.
func New() *Registry { return &Registry{values: map[string]bool{}} }

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
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.values) + len(r.pending)
}

// Redact replaces every remembered value in s, in any of its spellings, with
// Mask.
func (r *Registry) Redact(s string) string {
	repl := r.replacer()
	if repl == nil {
		return s
	}
	return repl.Replace(s)
}

// RedactBytes is Redact for a byte slice; b is returned as is when nothing
// is remembered.
func (r *Registry) RedactBytes(b []byte) []byte {
	repl := r.replacer()
	if repl == nil {
		return b
	}
	return []byte(repl.Replace(string(b)))
}

func (r *Registry) replacer() *strings.Replacer {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.repl
}

// rebuild makes the replacer from every spelling of every value, longest
// first so that a longer spelling wins over a value it contains.
func (r *Registry) rebuild() {
	seen := map[string]bool{}
	var olds []string
	add := func(v string) {
		for _, s := range spellings(v) {
			if s != "" && !seen[s] {
				seen[s] = true
				olds = append(olds, s)
			}
		}
	}
	for v := range r.values {
		add(v)
	}
	for _, v := range r.pending {
		add(v)
	}
	if len(olds) == 0 {
		r.repl = nil
		return
	}
	sort.Slice(olds, func(i, j int) bool {
		if len(olds[i]) != len(olds[j]) {
			return len(olds[i]) > len(olds[j])
		}
		return olds[i] < olds[j]
	})
	pairs := make([]string, 0, 2*len(olds))
	for _, o := range olds {
		pairs = append(pairs, o, Mask)
	}
	r.repl = strings.NewReplacer(pairs...)
}

// spellings are the forms v takes in the places it can reappear.
func spellings(v string) []string {
	j := jsonInner(v, false)
	out := []string{
		v,
		j,                          // in a JSON string
		jsonInner(v, true),         // … with <, >, & escaped (Go's encoder)
		asciiJSON(v, false, false), // … with non-ASCII as \uXXXX
		asciiJSON(v, true, false),  // … upper-case hex
		asciiJSON(v, false, true),  // … and <, >, & escaped too
		asciiJSON(v, true, true),
		jsonInner(j, false), // a JSON string inside a JSON string
		jsonInner(jsonInner(v, true), false),
		jsonInner(asciiJSON(v, false, false), false),
		url.QueryEscape(v),   // form data, query strings
		url.PathEscape(v),    // paths
		html.EscapeString(v), // HTML text and attributes, as Go escapes them
		htmlText.Replace(v),  // … as a browser serialises text
		htmlAttr.Replace(v),  // … and attribute values
		htmlAttrAll.Replace(v),
		strings.ToValidUTF8(v, ""),
	}
	return out
}

// The ways a browser (innerHTML, outerHTML) writes text and attribute values.
var (
	htmlText    = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;")
	htmlAttr    = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "\u00a0", "&nbsp;")
	htmlAttrAll = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;")
)

// jsonInner is v as it appears between the quotes of a JSON string.
func jsonInner(v string, escapeHTML bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if enc.Encode(v) != nil {
		return v
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

// asciiJSON is jsonInner with every non-ASCII character written as \uXXXX
// (UTF-16 pairs beyond the BMP), as some encoders write it.
func asciiJSON(v string, upper, escapeHTML bool) string {
	const lower, upperHex = "0123456789abcdef", "0123456789ABCDEF"
	hex := lower
	if upper {
		hex = upperHex
	}
	var b strings.Builder
	for _, r := range jsonInner(v, escapeHTML) {
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		write := func(u rune) {
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(u>>uint(shift))&0xf])
			}
		}
		if r > 0xffff {
			r -= 0x10000
			write(0xd800 + (r >> 10))
			write(0xdc00 + (r & 0x3ff))
			continue
		}
		write(r)
	}
	return b.String()
}
