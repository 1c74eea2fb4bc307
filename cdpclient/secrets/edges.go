package secrets

import "bytes"

// cutMarks are how cuts end a text: what a secret's first part before one
// was cut from.
var cutMarks = [][]byte{[]byte("…"), []byte("\n[truncated")}

// cutEdges masks the start of a secret right before a cut mark, and its end
// right after one: a cut made where no one knew the secret (in the page, or
// before it was learned) leaves a part of it.
func (m *matcher) cutEdges(text []byte, out *[]span) {
	reach := m.maxLen * spread
	for _, mark := range cutMarks {
		for i := 0; ; {
			k := bytes.Index(text[i:], mark)
			if k < 0 {
				break
			}
			at := i + k
			a := max(0, at-reach)
			m.edge(&view{b: text[a:at]}, true, func(s span) { *out = append(*out, span{s.a + a, s.b + a}) })
			end := at + len(mark)
			if string(mark) == "…" {
				b := min(len(text), end+reach)
				m.edge(&view{b: text[end:b]}, false, func(s span) { *out = append(*out, span{s.a + end, s.b + end}) })
			}
			i = end
		}
	}
}

// edge finds, in v and its decoded views, a text that ends with the start of
// a secret (before a cut) or begins with its end (after one), of MinLen bytes
// or more.
func (m *matcher) edge(v *view, before bool, found func(span)) {
	views := []*view{v}
	for _, d := range decoders {
		if nv := decode(v, []decoder{d}); nv != nil {
			views = append(views, nv)
		}
	}
	if nv := decode(v, decoders); nv != nil {
		views = append(views, nv)
	}
	for _, x := range views {
		c := canonical(x)
		cb := bytes.TrimRight(c.b, "+")
		if !before {
			cb = bytes.TrimLeft(c.b, "+")
		}
		off := len(c.b) - len(bytes.TrimLeft(c.b, "+"))
		for _, n := range m.needles {
			if len(n.canon) < len(n.whole) {
				continue // the whole secret's needle finds its parts
			}
			for k := len(n.canon) - 1; k >= MinLen; k-- {
				if before && bytes.HasSuffix(cb, n.canon[:k]) {
					a, b := c.origin(len(cb)-k, len(cb))
					found(span{a, b})
					break
				}
				if !before && bytes.HasPrefix(cb, n.canon[len(n.canon)-k:]) {
					a, b := c.origin(off, off+k)
					found(span{a, b})
					break
				}
			}
		}
	}
}
