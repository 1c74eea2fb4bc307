package secrets

import (
	"bytes"
	"hash/maphash"
	"slices"
	"unicode/utf8"
)

// maxDepth is how many layers of encoding are undone: a password in form data
// (1) in a JSON string (2) inside another JSON string (3), or base64 of
// base64 of hex.
const maxDepth = 3

// spread bounds how many bytes of text one byte of a secret can take through
// maxDepth encodings (é is %C3%A9, in JSON \u0025C3\u0025A9 …).
const spread = 40

// chunk is how much of a long text is searched at a time when no anchor
// narrows the search; chunks overlap by a secret's spread.
const chunk = 128 << 10

// lineReach bounds how far a region reaches out to whole lines: what is
// around a value (its line, the words beside it) says whether it is the
// page's own word or cdpmcp's markup (exempt.go).
const lineReach = 512

// matcher finds the secrets of one state of a registry. It is immutable.
type matcher struct {
	needles []needle
	// full: some needle has no anchor, so texts are searched whole.
	full bool
	// literal: some needle holds a character escapes start with.
	literal bool
	// wide: some needle holds characters beyond ASCII (UTF-16 without
	// zero bytes).
	wide   bool
	maxLen int // longest needle, in bytes
	// perNeedle: the needles are few, searched for one by one (scan.go).
	perNeedle bool
	scan      scanners
}

// span is a part of a text to mask: bytes [a, b).
type span struct{ a, b int }

// kind is what a found value is where it stands.
type kind uint8

const (
	masked kind = iota // a secret: masked
	exempt             // the page's own word, or cdpmcp's markup: left as is where nothing else masks it
	forced             // a value (a JSON string, a URL parameter) that is exactly the secret: masked whatever else holds
)

// collector gathers what a search found: a span found as a secret in one
// view and as exempt in another (a page's word seen through an escape) is
// left, unless it is a value somewhere.
type collector struct {
	mask, force []span
	exempt      map[span]bool
}

func (c *collector) add(s span, k kind) {
	switch k {
	case masked:
		c.mask = append(c.mask, s)
	case forced:
		c.force = append(c.force, s)
	case exempt:
		if c.exempt == nil {
			c.exempt = map[span]bool{}
		}
		c.exempt[s] = true
	}
}

func (c *collector) spans() []span {
	out := c.force
	for _, s := range c.mask {
		if !c.exempt[s] {
			out = append(out, s)
		}
	}
	return merge(out)
}

// found reports a span of a view and what it is, in the root's bytes.
type found func(s span, k kind)

// find returns the parts of text that hold a secret, sorted and merged.
func (m *matcher) find(text []byte) []span {
	if m == nil || len(text) == 0 {
		return nil
	}
	c := &collector{}
	m.binaryRuns(text, c.add)
	m.numberRuns(text, c.add)
	m.cutsIn(text, c.add)
	for _, r := range m.regions(text) {
		m.walk(&view{b: text[r.a:r.b], words: true}, 0, map[uint64]bool{}, func(s span, k kind) { c.add(span{s.a + r.a, s.b + r.a}, k) })
	}
	return c.spans()
}

// holds reports whether text, taken as a whole (what a base64 run decodes
// to), holds a secret under depth layers at most.
func (m *matcher) holds(text []byte, depth int) bool {
	if !m.full && !m.anchored(text) && !(textLike(text) && encoded(text)) {
		return false
	}
	c := &collector{}
	m.walk(&view{b: text}, depth, map[uint64]bool{}, c.add)
	return len(c.spans()) > 0
}

var seed = maphash.MakeSeed()

// walk searches v and the views that undo its encodings, up to maxDepth
// layers, reporting spans in v's root. A layer's escapes are undone all
// together; one kind at a time too when a secret holds an escape character
// itself (a '%' of a password an HTML page escapes is no URL escape), and
// the alternates (CSS, octal, quoted-printable) each on their own. Below the
// root, runs of base64, hex and base32 are decoded too (the root's are, in
// the whole text, by binaryRuns).
func (m *matcher) walk(v *view, depth int, seen map[uint64]bool, f found) {
	m.search(v, f)
	if depth == maxDepth {
		return
	}
	if depth > 0 {
		m.binary(v, depth, f)
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
		m.walk(nv, depth+1, seen, f)
	}
	var present []decoder
	for _, d := range decoders {
		if bytes.IndexByte(v.b, d.trigger) >= 0 {
			present = append(present, d)
		}
	}
	if len(present) > 0 {
		next(decode(v, present))
		if m.literal && len(present) > 1 {
			for _, d := range present {
				next(decode(v, []decoder{d}))
			}
		}
	}
	for _, d := range alternates {
		if bytes.IndexByte(v.b, d.trigger) >= 0 && d.likely(v.b) {
			next(decode(v, []decoder{d}))
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
