package secrets

import (
	"bytes"
	"sync"
)

// fewNeedles is the most needles a matcher searches for one by one
// (bytes.Index is quicker than the automaton's pass for so few); more are
// searched for all at once by automata (automaton.go), which cost the same
// for any number of them.
const fewNeedles = 4

// scanners are a matcher's automata, made when it first searches.
type scanners struct {
	once sync.Once
	// canon finds needles' canonical texts; needlesOf are the needles of
	// each of its words (a start typed key by key of one value may be
	// another value whole).
	canon     *automaton
	needlesOf [][]int
	// anchors finds the needles' anchors, in any case of ASCII letters.
	anchors *automaton
}

func (m *matcher) scanners() *scanners {
	s := &m.scan
	s.once.Do(func() {
		words, ids := [][]byte{}, map[string]int{}
		var anchors [][]byte
		anchorSeen := map[string]bool{}
		for ni, n := range m.needles {
			id, ok := ids[string(n.canon)]
			if !ok {
				id = len(words)
				ids[string(n.canon)] = id
				words = append(words, n.canon)
				s.needlesOf = append(s.needlesOf, nil)
			}
			s.needlesOf[id] = append(s.needlesOf[id], ni)
			if n.anchor != nil && !anchorSeen[string(n.anchor)] {
				anchorSeen[string(n.anchor)] = true
				anchors = append(anchors, n.anchor)
			}
		}
		s.canon = newAutomaton(words, false)
		s.anchors = newAutomaton(anchors, true)
	})
	return s
}

// canonScratch holds buffers for canonical text that is searched and let
// go when it holds no needle (most of it).
var canonScratch = sync.Pool{New: func() any { return new([]byte) }}

// canonViews hold canonical views of the texts that held a needle, for
// the time their places are found (search).
var canonViews = sync.Pool{New: func() any { return new(view) }}

// needleAt is a needle found in canonical text, where it ends.
type needleAt struct{ needle, end int }

// search reports where v's canonical text holds a needle, and what each
// place is (exempt.go).
func (m *matcher) search(v *view, f found) {
	buf := canonScratch.Get().(*[]byte)
	cb := canonicalBytes(v.b, *buf)
	var hits []needleAt
	if m.perNeedle {
		for ni := range m.needles {
			canon := m.needles[ni].canon
			for i := 0; ; {
				k := bytes.Index(cb[i:], canon)
				if k < 0 {
					break
				}
				hits = append(hits, needleAt{ni, i + k + len(canon)})
				i += k + 1
			}
		}
	} else {
		s := m.scanners()
		s.canon.scan(cb, func(w, end int) {
			for _, ni := range s.needlesOf[w] {
				hits = append(hits, needleAt{ni, end})
			}
		})
	}
	*buf = cb
	canonScratch.Put(buf)
	if len(hits) == 0 {
		return
	}
	c := canonicalInto(v, canonViews.Get().(*view))
	defer func() { c.parent = nil; canonViews.Put(c) }()
	var tags tagCursor
	root := v.root()
	for _, h := range hits {
		n := &m.needles[h.needle]
		start, end := h.end-len(n.canon), h.end
		j := len(n.canon)
		for ; j < len(n.whole) && end < len(c.b) && c.b[end] == n.whole[j]; j++ {
			end++
		}
		a, b := c.parentRange(start, end)
		ra, rb := v.origin(a, b)
		// A short value inside a longer word or number is not it; nor is a
		// start of a value typed key by key that goes on in other letters
		// or digits ("summer2025" is no start of "summer2024": the page saw
		// the start end where it ended).
		if (n.short() || j < len(n.whole)) && root.words && glued(root.b, ra, rb) {
			continue
		}
		f(span{ra, rb}, classify(v.b, a, b, n, &tags))
	}
}

// anchored reports whether text holds some needle's anchor, in any case
// of its ASCII letters (a needle without one is anywhere).
func (m *matcher) anchored(text []byte) bool {
	if m.full {
		return true
	}
	if m.perNeedle {
		for _, n := range m.needles {
			if containsLower(text, n.anchor) {
				return true
			}
		}
		return false
	}
	return m.scanners().anchors.any(text)
}

// anchorsIn calls visit with where each needle's anchor is in text, in any
// case of its ASCII letters: its start and its length.
func (m *matcher) anchorsIn(text []byte, visit func(at, n int)) {
	if m.perNeedle {
		lower := asciiLower(text)
		for _, n := range m.needles {
			if n.anchor == nil {
				continue
			}
			for i := 0; ; {
				k := bytes.Index(lower[i:], n.anchor)
				if k < 0 {
					break
				}
				visit(i+k, len(n.anchor))
				i += k + 1
			}
		}
		return
	}
	a := m.scanners().anchors
	a.scan(text, func(w, end int) { visit(end-a.lens[w], a.lens[w]) })
}

// containsLower reports whether text, its ASCII letters in lower case,
// holds lower.
func containsLower(text, lower []byte) bool {
	if len(lower) == 0 {
		return true
	}
	first := lower[0]
	for i := 0; i+len(lower) <= len(text); i++ {
		c := text[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != first {
			continue
		}
		j := 1
		for ; j < len(lower); j++ {
			d := text[i+j]
			if d >= 'A' && d <= 'Z' {
				d += 'a' - 'A'
			}
			if d != lower[j] {
				break
			}
		}
		if j == len(lower) {
			return true
		}
	}
	return false
}
