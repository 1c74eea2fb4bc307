package secrets

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// fromUTF16 is b read as UTF-16 (little or big endian), as UTF-8; nil when
// that is not text (textLike). What most runs decode to is not: that is
// found before anything is made of it.
func fromUTF16(b []byte, little bool) []byte {
	if !utf16TextLike(b, little) {
		return nil
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = utf16Unit(b, i, little)
	}
	// utf16TextLike said textLike of it (TestUTF16TextLikeIsTextLike).
	return []byte(string(utf16.Decode(u)))
}

func utf16Unit(b []byte, i int, little bool) uint16 {
	if little {
		return uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return uint16(b[2*i])<<8 | uint16(b[2*i+1])
}

// utf16TextLike is textLike of what fromUTF16 makes of b, without making
// it: the characters utf16.Decode reads (a surrogate without its pair is
// U+FFFD), counted against the length of their UTF-8.
func utf16TextLike(b []byte, little bool) bool {
	n := len(b) / 2
	size, bad := 0, 0
	for i := 0; i < n; i++ {
		r := rune(utf16Unit(b, i, little))
		switch {
		case !utf16.IsSurrogate(r):
		case r < 0xdc00 && i+1 < n && utf16.IsSurrogate(rune(utf16Unit(b, i+1, little))) && utf16Unit(b, i+1, little) >= 0xdc00:
			r = utf16.DecodeRune(r, rune(utf16Unit(b, i+1, little)))
			i++
		default:
			r = utf8.RuneError
		}
		size += utf8.RuneLen(r)
		if r < utf8.RuneSelf {
			if r < ' ' && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
				bad++
			}
		} else if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			bad++
		}
	}
	return bad <= size/8
}
