package secrets

import (
	"bytes"
	"sort"
	"unicode"
	"unicode/utf8"
)

// A view is text as it reads after undoing one layer of encoding, with the
// way back to its parent: segs say where each part of it came from. The
// root view is the text itself (no parent). A secret found in a view is
// masked where it came from in the root.
type view struct {
	b      []byte
	segs   []seg
	parent *view
}

// seg maps the view's bytes from at up to the next seg's at: a copied run
// (same) is the parent's bytes from on, one by one; a decoded one came from
// the parent's bytes [from, to) as a whole.
type seg struct {
	at, from, to int
	same         bool
}

// parentRange is where the view's bytes [a, b) came from in the parent.
func (v *view) parentRange(a, b int) (int, int) {
	return v.parentPos(a, false), v.parentPos(b-1, true)
}

func (v *view) parentPos(i int, end bool) int {
	k := sort.Search(len(v.segs), func(k int) bool { return v.segs[k].at > i }) - 1
	s := v.segs[k]
	if s.same {
		p := s.from + i - s.at
		if end {
			p++
		}
		return p
	}
	if end {
		return s.to
	}
	return s.from
}

// origin is where the bytes a:b of v came from in the root.
func (v *view) origin(a, b int) (int, int) {
	for x := v; x.parent != nil; x = x.parent {
		a, b = x.parentRange(a, b)
	}
	return a, b
}

// builder makes a child view of parent.
type builder struct {
	v       view
	changed bool
}

func newBuilder(parent *view) *builder {
	return &builder{v: view{b: make([]byte, 0, len(parent.b)), parent: parent}}
}

// copy adds the parent's bytes [from, to) unchanged.
func (b *builder) copy(from, to int) {
	if from == to {
		return
	}
	if n := len(b.v.segs); n > 0 {
		if last := b.v.segs[n-1]; last.same && last.from+len(b.v.b)-last.at == from {
			b.v.b = append(b.v.b, b.v.parent.b[from:to]...)
			return
		}
	}
	b.v.segs = append(b.v.segs, seg{at: len(b.v.b), from: from, same: true})
	b.v.b = append(b.v.b, b.v.parent.b[from:to]...)
}

// emit adds out, decoded from the parent's bytes [from, to).
func (b *builder) emit(out []byte, from, to int) {
	b.changed = true
	b.v.segs = append(b.v.segs, seg{at: len(b.v.b), from: from, to: to})
	b.v.b = append(b.v.b, out...)
}

// done returns the view, or nil when it is the parent's text.
func (b *builder) done() *view {
	if !b.changed {
		return nil
	}
	return &b.v
}

// A decoder undoes one kind of encoding wherever it finds it; trigger is
// the byte every such encoding starts with.
type decoder struct {
	trigger byte
	step    func(src []byte, i int) (out []byte, n int) // n 0: no escape at i
}

// decoders are the encodings text goes through on its way out: JSON and
// JavaScript string escapes and Markdown's backslash escapes; percent
// encoding (URLs, form data as browsers write it, %uXXXX); HTML character
// references.
var decoders = []decoder{
	{'\\', backslashStep},
	{'%', percentStep},
	{'&', entityStep},
}

// decode undoes the escapes of the given decoders in v; nil when there were
// none.
func decode(v *view, ds []decoder) *view {
	b := newBuilder(v)
	src := v.b
	var triggers []byte
	for _, d := range ds {
		triggers = append(triggers, d.trigger)
	}
	at := 0 // copied up to here
	for i := 0; i < len(src); {
		k := bytes.IndexAny(src[i:], string(triggers))
		if k < 0 {
			break
		}
		i += k
		n := 0
		var out []byte
		for _, d := range ds {
			if src[i] == d.trigger {
				out, n = d.step(src, i)
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		b.copy(at, i)
		b.emit(out, i, i+n)
		i += n
		at = i
	}
	b.copy(at, len(src))
	return b.done()
}

// canonical is v as needles are compared with it: letters in lower case,
// every run of spaces, other white space and '+' (a space in form data) one
// '+'.
func canonical(v *view) *view {
	b := newBuilder(v)
	b.changed = true
	src := v.b
	at := 0 // copied up to here
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf && !(c >= 'A' && c <= 'Z') && !space(rune(c)) {
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case space(r):
			j := i + size
			for j < len(src) {
				r2, s2 := utf8.DecodeRune(src[j:])
				if !space(r2) {
					break
				}
				j += s2
			}
			if j-i == 1 && c == '+' {
				i = j
				continue
			}
			b.copy(at, i)
			b.emit([]byte{'+'}, i, j)
			i, at = j, j
		case c >= 'A' && c <= 'Z':
			b.copy(at, i)
			b.emit([]byte{c + 'a' - 'A'}, i, i+1)
			i, at = i+1, i+1
		case r == utf8.RuneError && size == 1:
			i++ // a byte of another charset: kept
		default:
			lr := unicode.ToLower(r)
			if lr == r {
				i += size
				continue
			}
			b.copy(at, i)
			b.emit(utf8.AppendRune(nil, lr), i, i+size)
			i += size
			at = i
		}
	}
	b.copy(at, len(src))
	return &b.v
}

func space(r rune) bool {
	return r == '+' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == 0xa0
}
