package secrets

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// canonical is v as needles are compared with it: letters in lower case,
// compatibility forms folded (fullwidth letters, mathematical letters,
// ligatures, circled letters and digits: NFKC's), characters that draw
// nothing (zero-width spaces and joiners, soft hyphens, byte-order marks)
// left out, every run of spaces, other white space and '+' (a space in form
// data) one '+'.
func canonical(v *view) *view {
	return canonicalInto(v, &view{b: make([]byte, 0, len(v.b))})
}

// canonicalInto is canonical(v) written over into's bytes and way back
// (their capacity reused), for a view needed only for a while.
func canonicalInto(v, into *view) *view {
	b := builder{v: view{b: into.b[:0], segs: into.segs[:0], parent: v}, src: v.b, changed: true}
	canonicalize(&b)
	*into = b.v
	return into
}

// canonicalBytes are the bytes of canonical(&view{b: src}), written into
// buf (its capacity reused), without the way back.
func canonicalBytes(src, buf []byte) []byte {
	b := builder{v: view{b: buf[:0]}, src: src, bytesOnly: true}
	canonicalize(&b)
	return b.v.b
}

// canonicalize writes the canonical form of b's parent's text into b.
func canonicalize(b *builder) {
	src := b.src
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
				if !space(r2) && !invisible(r2) {
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
		case invisible(r):
			b.copy(at, i)
			b.emit(nil, i, i+size)
			i += size
			at = i
		case compatible(r):
			b.copy(at, i)
			b.emit(bytes.ToLower(norm.NFKC.Bytes(src[i:i+size])), i, i+size)
			i += size
			at = i
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
}

func space(r rune) bool {
	switch r {
	case '+', ' ', '\t', '\n', '\r', '\f', '\v', 0xa0, 0x202f, 0x205f, 0x3000, 0xff0b:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// invisible are the characters that draw nothing, which a page can put
// between a secret's letters without changing what a reader sees.
func invisible(r rune) bool {
	switch r {
	case 0xad, 0x34f, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff:
		return true
	}
	return false
}

// compatible are the characters whose NFKC form is another: fullwidth
// forms, mathematical letters and digits, ligatures, enclosed (circled)
// letters and digits, super- and subscripts, letterlike symbols.
func compatible(r rune) bool {
	switch {
	case r >= 0xff01 && r <= 0xff5e, r >= 0x1d400 && r <= 0x1d7ff, r >= 0xfb00 && r <= 0xfb06,
		r >= 0x2460 && r <= 0x24ff, r >= 0x2070 && r <= 0x209f, r >= 0x2100 && r <= 0x214f,
		r >= 0x1f100 && r <= 0x1f1ff, r == 0xb2, r == 0xb3, r == 0xb9, r == 0xaa, r == 0xba:
		return true
	}
	return false
}
