package secrets

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// A part of a secret is masked only where a cut cdpmcp made left it: Cut
// remembers the text on both sides of each cut it makes, and a redactor that
// meets a cut's mark ("…", "\n[truncated") right after the remembered text
// before it (or the remembered text after it at the start of a text or right
// after a "…") masks the part of its own values that straddled that cut. A
// "…" a page wrote itself matches no cut, so the start of a value before it
// stays as it is: nothing short of a whole value is ever masked elsewhere,
// and probing a cut teaches a tenant only about its own values.

const (
	cutWindow = 1024 // bytes kept on each side of a cut
	cutKey    = 16   // bytes a cut is found by
	cutsKept  = 512  // cuts remembered (the oldest go first)
)

// cutMarks are how cuts end a text.
var cutMarks = [][]byte{[]byte("…"), []byte("\n[truncated")}

type cutRecord struct {
	tail, head []byte // the text before the cut and after it
	kt, kh     uint64 // their keys
}

var cuts struct {
	sync.Mutex
	ring         [cutsKept]*cutRecord
	next         int
	tails, heads map[uint64]*cutRecord
	// short are key lengths under cutKey that are recorded (a cut near
	// a text's start or end), by bit.
	shortTails, shortHeads uint32
}

func cutHash(b []byte) uint64 { return maphash.Bytes(seed, b) }

// recordCut remembers the cut of s at n.
func recordCut(s string, n int) {
	rec := &cutRecord{tail: []byte(s[max(0, n-cutWindow):n]), head: []byte(s[n:min(len(s), n+cutWindow)])}
	if len(rec.tail) == 0 && len(rec.head) == 0 {
		return
	}
	rec.kt = cutHash(rec.tail[max(0, len(rec.tail)-cutKey):])
	rec.kh = cutHash(rec.head[:min(len(rec.head), cutKey)])
	cuts.Lock()
	defer cuts.Unlock()
	if cuts.tails == nil {
		cuts.tails, cuts.heads = map[uint64]*cutRecord{}, map[uint64]*cutRecord{}
	}
	if old := cuts.ring[cuts.next]; old != nil {
		if cuts.tails[old.kt] == old {
			delete(cuts.tails, old.kt)
		}
		if cuts.heads[old.kh] == old {
			delete(cuts.heads, old.kh)
		}
	}
	cuts.ring[cuts.next] = rec
	cuts.next = (cuts.next + 1) % cutsKept
	cuts.tails[rec.kt], cuts.heads[rec.kh] = rec, rec
	if len(rec.tail) < cutKey {
		cuts.shortTails |= 1 << len(rec.tail)
	}
	if len(rec.head) < cutKey {
		cuts.shortHeads |= 1 << len(rec.head)
	}
}

// cutBefore is the cut whose text before it ends b[:at], or nil.
func cutBefore(b []byte, at int) *cutRecord {
	cuts.Lock()
	defer cuts.Unlock()
	if len(cuts.tails) == 0 {
		return nil
	}
	for l := min(at, cutKey); l > 0; l-- {
		if l < cutKey && cuts.shortTails&(1<<l) == 0 {
			continue
		}
		key := b[at-l : at]
		if r := cuts.tails[cutHash(key)]; r != nil && bytes.HasSuffix(r.tail, key) && (l == cutKey || len(r.tail) == l) {
			return r
		}
	}
	return nil
}

// cutAfter is the cut whose text after it starts b[at:], or nil.
func cutAfter(b []byte, at int) *cutRecord {
	cuts.Lock()
	defer cuts.Unlock()
	if len(cuts.heads) == 0 {
		return nil
	}
	for l := min(len(b)-at, cutKey); l > 0; l-- {
		if l < cutKey && cuts.shortHeads&(1<<l) == 0 {
			continue
		}
		key := b[at : at+l]
		if r := cuts.heads[cutHash(key)]; r != nil && bytes.HasPrefix(r.head, key) && (l == cutKey || len(r.head) == l) {
			return r
		}
	}
	return nil
}

// cutsIn masks the parts of m's values that remembered cuts left in text,
// as it is and, around each cut's mark, with up to maxDepth layers of
// escapes undone (a cut string inside feedback's JSON).
func (m *matcher) cutsIn(text []byte, f found) {
	cuts.Lock()
	none := len(cuts.tails) == 0
	cuts.Unlock()
	if none {
		return
	}
	m.cutEdges(&view{b: text}, f)
	if !bytes.ContainsAny(text, `\%&`) {
		return
	}
	for _, mark := range [][]byte{[]byte("…"), []byte(`\u2026`), []byte("[truncated")} {
		for i := 0; ; {
			k := bytes.Index(text[i:], mark)
			if k < 0 {
				break
			}
			at := i + k
			i = at + len(mark)
			// Only where the text before the mark, its escapes undone,
			// ends like a remembered cut.
			hit := false
			layers(&view{b: text[max(0, at-8*cutKey):at]}, func(v *view, _ int) {
				for _, end := range [][]byte{v.b, bytes.TrimSuffix(v.b, []byte("\n")), bytes.TrimSuffix(v.b, []byte(`\n`))} {
					hit = hit || cutBefore(end, len(end)) != nil
				}
			})
			if !hit {
				continue
			}
			lo, hi := max(0, at-4*cutWindow), min(len(text), at+4*cutWindow)
			layers(&view{b: text[lo:hi]}, func(v *view, depth int) {
				if depth > 0 {
					m.cutEdges(v, func(s span, k kind) { f(span{s.a + lo, s.b + lo}, k) })
				}
			})
		}
	}
}

// layers calls visit with v and every view of it with up to maxDepth
// layers of escapes undone, each layer all together and one kind at a
// time (a cut string may hold escapes of another kind itself: a URL's %7E
// inside JSON).
func layers(v *view, visit func(v *view, depth int)) {
	seen := map[uint64]bool{}
	var expand func(v *view, depth int)
	expand = func(v *view, depth int) {
		visit(v, depth)
		if depth == maxDepth {
			return
		}
		for _, ds := range [][]decoder{decoders, decoders[:1], decoders[1:2], decoders[2:]} {
			if nv := decode(v, ds); nv != nil && !seen[maphash.Bytes(seed, nv.b)] {
				seen[maphash.Bytes(seed, nv.b)] = true
				expand(nv, depth+1)
			}
		}
	}
	expand(v, 0)
}

// cutEdges masks, in v, the part of a value of m's that a remembered cut
// split: before the cut's mark, or at the start of v or after a "…" where
// the text after a cut goes on.
func (m *matcher) cutEdges(v *view, f found) {
	report := func(a, b int) {
		ra, rb := v.origin(a, b)
		f(span{ra, rb}, masked)
	}
	after := func(at int) {
		if r := cutAfter(v.b, at); r != nil {
			for _, s := range m.straddling(r) {
				report(at, min(len(v.b), at+s.b-len(r.tail)))
			}
		}
	}
	after(0)
	for _, mark := range cutMarks {
		for i := 0; ; {
			k := bytes.Index(v.b[i:], mark)
			if k < 0 {
				break
			}
			at := i + k
			if r := cutBefore(v.b, at); r != nil {
				for _, s := range m.straddling(r) {
					report(max(0, at-(len(r.tail)-s.a)), at)
				}
			}
			i = at + len(mark)
			if mark[0] != '\n' {
				after(i)
			}
		}
	}
}

// straddling are the values of m the cut r split, in r's tail and head.
func (m *matcher) straddling(r *cutRecord) []span {
	text := append(append(make([]byte, 0, len(r.tail)+len(r.head)), r.tail...), r.head...)
	c := &collector{}
	m.binaryRuns(text, c.add)
	m.walk(&view{b: text}, 0, map[uint64]bool{}, c.add)
	var out []span
	for _, s := range c.spans() {
		if s.a < len(r.tail) && s.b > len(r.tail) {
			out = append(out, s)
		}
	}
	return out
}
