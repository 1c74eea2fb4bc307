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
// as it is and with up to maxDepth layers of escapes undone (a cut string
// inside feedback's JSON).
func (m *matcher) cutsIn(text []byte, f found) {
	cuts.Lock()
	none := len(cuts.tails) == 0
	cuts.Unlock()
	if none {
		return
	}
	v := &view{b: text}
	for depth := 0; v != nil && depth <= maxDepth; depth++ {
		m.cutEdges(v, f)
		var present []decoder
		for _, d := range decoders {
			if bytes.IndexByte(v.b, d.trigger) >= 0 {
				present = append(present, d)
			}
		}
		if len(present) == 0 {
			break
		}
		v = decode(v, present)
	}
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
