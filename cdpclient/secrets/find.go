package secrets

import (
	"bytes"
	"hash/maphash"
	"slices"
	"unicode/utf8"
)

// maxDepth is how many layers of encoding are undone: a password in form data
// (1) in a JSON string (2) inside another JSON string (3).
const maxDepth = 3

// spread bounds how many bytes of text one byte of a secret can take through
// maxDepth encodings (é is %C3%A9, in JSON \u0025C3\u0025A9 …).
const spread = 40

// chunk is how much of a long text is searched at a time when no anchor
// narrows the search; chunks overlap by a secret's spread.
const chunk = 128 << 10

// matcher finds the secrets of one state of a registry. It is immutable.
type matcher struct {
	needles []needle
	// full: some needle has no anchor, so texts are searched whole.
	full bool
	// literal: some needle holds a character escapes start with.
	literal bool
	maxLen  int // longest needle, in bytes
}

// span is a part of a text to mask: bytes [a, b).
type span struct{ a, b int }

// find returns the parts of text that hold a secret, sorted and merged.
func (m *matcher) find(text []byte) []span {
	if m == nil || len(text) == 0 {
		return nil
	}
	var out []span
	m.base64(text, &out)
	for _, r := range m.regions(text) {
		m.walk(&view{b: text[r.a:r.b]}, 0, map[uint64]bool{}, func(s span) { out = append(out, span{s.a + r.a, s.b + r.a}) })
	}
	m.cutEdges(text, &out)
	return merge(out)
}

// regions are the parts of text to search: around each anchor found, or
// the whole text in overlapping chunks.
func (m *matcher) regions(text []byte) []span {
	reach := m.maxLen * spread
	if m.full {
		var out []span
		for a := 0; a < len(text); a += chunk {
			out = append(out, span{a, min(len(text), a+chunk+reach)})
			if a+chunk+reach >= len(text) {
				break
			}
		}
		return out
	}
	lower := asciiLower(text)
	out := escapeRuns(text, reach)
	for _, n := range m.needles {
		for i := 0; ; {
			k := bytes.Index(lower[i:], n.anchor)
			if k < 0 {
				break
			}
			at := i + k
			out = append(out, span{max(0, at-reach), min(len(text), at+len(n.anchor)+reach)})
			i = at + 1
		}
	}
	return merge(out)
}

// escapeRuns are the regions around runs of MinLen escapes or more: text an
// encoder wrote all in escapes, letters too, holds no anchor.
func escapeRuns(text []byte, reach int) []span {
	var out []span
	start, count, end := 0, 0, -1
	for i := 0; i < len(text); {
		k := bytes.IndexAny(text[i:], `\\%&`)
		if k < 0 {
			break
		}
		i += k
		n := 0
		for _, d := range decoders {
			if text[i] == d.trigger {
				_, n = d.step(text, i)
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		if i != end {
			if count >= MinLen {
				out = append(out, span{max(0, start-reach), min(len(text), end+reach)})
			}
			start, count = i, 0
		}
		count++
		i += n
		end = i
	}
	if count >= MinLen {
		out = append(out, span{max(0, start-reach), min(len(text), end+reach)})
	}
	return out
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

var seed = maphash.MakeSeed()

// walk searches v and the views that undo its encodings, up to maxDepth
// layers, reporting spans in v's root. A layer's escapes are undone all
// together; one kind at a time too when a secret holds an escape character
// itself (a '%' of a password an HTML page escapes is no URL escape).
func (m *matcher) walk(v *view, depth int, seen map[uint64]bool, found func(span)) {
	m.search(v, found)
	if depth == maxDepth {
		return
	}
	var present []decoder
	for _, d := range decoders {
		if bytes.IndexByte(v.b, d.trigger) >= 0 {
			present = append(present, d)
		}
	}
	next := func(nv *view) {
		if nv == nil {
			return
		}
		h := maphash.Bytes(seed, nv.b)
		if seen[h] {
			return
		}
		seen[h] = true
		m.walk(nv, depth+1, seen, found)
	}
	if len(present) == 0 {
		return
	}
	next(decode(v, present))
	if m.literal && len(present) > 1 {
		for _, d := range present {
			next(decode(v, []decoder{d}))
		}
	}
}

// search reports where v's canonical text holds a needle.
func (m *matcher) search(v *view, found func(span)) {
	c := canonical(v)
	for _, n := range m.needles {
		for i := 0; ; {
			k := bytes.Index(c.b[i:], n.canon)
			if k < 0 {
				break
			}
			end := i + k + len(n.canon)
			for j := len(n.canon); j < len(n.whole) && end < len(c.b) && c.b[end] == n.whole[j]; j++ {
				end++
			}
			a, b := c.origin(i+k, end)
			found(span{a, b})
			i += k + 1
		}
	}
}

// merge sorts spans and joins those that overlap or touch.
func merge(s []span) []span {
	if len(s) < 2 {
		return s
	}
	slices.SortFunc(s, func(x, y span) int { return x.a - y.a })
	out := s[:1]
	for _, x := range s[1:] {
		last := &out[len(out)-1]
		if x.a <= last.b {
			last.b = max(last.b, x.b)
			continue
		}
		out = append(out, x)
	}
	return out
}

// mask replaces the spans of text with Mask.
func mask(text []byte, spans []span) []byte {
	out := make([]byte, 0, len(text))
	at := 0
	for _, s := range spans {
		out = append(out, text[at:s.a]...)
		out = append(out, Mask...)
		at = s.b
	}
	return append(out, text[at:]...)
}

// runeAligned widens spans to whole UTF-8 characters.
func runeAligned(text []byte, spans []span) []span {
	for i := range spans {
		for spans[i].a > 0 && !utf8.RuneStart(text[spans[i].a]) {
			spans[i].a--
		}
		for spans[i].b < len(text) && !utf8.RuneStart(text[spans[i].b]) {
			spans[i].b++
		}
	}
	return merge(spans)
}
