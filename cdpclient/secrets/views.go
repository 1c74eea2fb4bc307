package secrets

import (
	"bytes"
	"sort"
)

// A view is text as it reads after undoing one layer of encoding, with the
// way back to its parent: segs say where each part of it came from. The
// root view is the text itself (no parent). A secret found in a view is
// masked where it came from in the root.
type view struct {
	b      []byte
	segs   []seg
	parent *view
	// words: the view is text given out as it is (not what a run of
	// base64 or hex decodes to), where a short value is found only whole
	// (exempt.go).
	words bool
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

// root is the view the text given out is: the first of its parents.
func (v *view) root() *view {
	for v.parent != nil {
		v = v.parent
	}
	return v
}

// builder makes a child view of its parent's text src; with bytesOnly,
// its bytes alone (no way back).
type builder struct {
	v         view
	src       []byte
	changed   bool
	bytesOnly bool
}

func newBuilder(parent *view) *builder {
	return &builder{v: view{b: make([]byte, 0, len(parent.b)), parent: parent}, src: parent.b}
}

// copy adds the parent's bytes [from, to) unchanged.
func (b *builder) copy(from, to int) {
	if from == to {
		return
	}
	if b.bytesOnly {
		b.v.b = append(b.v.b, b.src[from:to]...)
		return
	}
	if n := len(b.v.segs); n > 0 {
		if last := b.v.segs[n-1]; last.same && last.from+len(b.v.b)-last.at == from {
			b.v.b = append(b.v.b, b.src[from:to]...)
			return
		}
	}
	b.v.segs = append(b.v.segs, seg{at: len(b.v.b), from: from, same: true})
	b.v.b = append(b.v.b, b.src[from:to]...)
}

// emit adds out, decoded from the parent's bytes [from, to).
func (b *builder) emit(out []byte, from, to int) {
	b.changed = true
	if !b.bytesOnly {
		b.v.segs = append(b.v.segs, seg{at: len(b.v.b), from: from, to: to})
	}
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
// the byte every such encoding starts with; likely, when set, says whether a
// text may hold that encoding at all (a view is made only then).
type decoder struct {
	trigger byte
	step    func(src []byte, i int) (out []byte, n int) // n 0: no escape at i
	likely  func(b []byte) bool
}

// decoders are the encodings text goes through on its way out, undone
// together, a layer at a time: JSON and JavaScript string escapes and
// Markdown's backslash escapes; percent encoding (URLs, form data as
// browsers write it, %uXXXX); HTML character references.
var decoders = []decoder{
	{'\\', backslashStep, nil},
	{'%', percentStep, nil},
	{'&', entityStep, nil},
}

// alternates read the same signs another way: a backslash before hex digits
// is a CSS escape, before octal ones C's and old JavaScript's; "=" before
// two hex digits is quoted-printable's (and, in a URL, a parameter's value).
// Each is undone on its own, in a view of its own, when the text may hold it.
var alternates = []decoder{
	{'=', qpStep, qpLikely},
	{'\\', cssStep, func(b []byte) bool { return followedBy(b, '\\', func(c byte) bool { return hexVal(c) >= 0 }) }},
	{'\\', octalStep, func(b []byte) bool { return followedBy(b, '\\', func(c byte) bool { return c >= '0' && c <= '7' }) }},
}

// followedBy reports whether b holds trigger followed by a byte ok takes.
func followedBy(b []byte, trigger byte, ok func(byte) bool) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(b[i:], trigger)
		if k < 0 {
			return false
		}
		i += k
		if i+1 < len(b) && ok(b[i+1]) {
			return true
		}
	}
}

// qpLikely reports whether b looks quoted-printable: a soft line break, an
// escaped "=" (=3D), or two escapes in a row (a UTF-8 character, =C3=A9);
// a lone "=42" is more likely a URL's parameter.
func qpLikely(b []byte) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(b[i:], '=')
		if k < 0 {
			return false
		}
		i += k
		if i+1 < len(b) && (b[i+1] == '\n' || b[i+1] == '\r') {
			return true
		}
		if hexAt(b, i+1, 2) < 0 {
			continue
		}
		if b[i+1] == '3' && (b[i+2] == 'D' || b[i+2] == 'd') || i+5 < len(b) && b[i+3] == '=' && hexAt(b, i+4, 2) >= 0 {
			return true
		}
	}
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
