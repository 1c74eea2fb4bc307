package secrets

import (
	"bytes"
	"html"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// hexAt reads n hex digits at src[i:]; -1 when they are not there.
func hexAt(src []byte, i, n int) int {
	if i+n > len(src) {
		return -1
	}
	v := 0
	for k := range n {
		h := hexVal(src[i+k])
		if h < 0 {
			return -1
		}
		v = v<<4 | h
	}
	return v
}

func runeBytes(r rune) []byte {
	if r < 0 || r > unicode.MaxRune || (r >= 0xd800 && r < 0xe000) {
		r = utf8.RuneError
	}
	return utf8.AppendRune(nil, r)
}

// backslashStep reads a JSON or JavaScript escape (\n, \uXXXX with surrogate
// pairs, \u{X…}, \xXX) or a Markdown one (\ before any character stands for
// that character).
func backslashStep(src []byte, i int) ([]byte, int) {
	if i+1 >= len(src) {
		return nil, 0
	}
	switch c := src[i+1]; c {
	case 'n':
		return []byte{'\n'}, 2
	case 't':
		return []byte{'\t'}, 2
	case 'r':
		return []byte{'\r'}, 2
	case 'b':
		return []byte{'\b'}, 2
	case 'f':
		return []byte{'\f'}, 2
	case 'v':
		return []byte{'\v'}, 2
	case '0':
		return []byte{0}, 2
	case 'x':
		if v := hexAt(src, i+2, 2); v >= 0 {
			return runeBytes(rune(v)), 4
		}
	case 'u':
		if i+2 < len(src) && src[i+2] == '{' {
			end := bytes.IndexByte(src[i+3:min(len(src), i+11)], '}')
			if end > 0 {
				if v := hexAt(src, i+3, end); v >= 0 {
					return runeBytes(rune(v)), end + 4
				}
			}
			break
		}
		v := hexAt(src, i+2, 4)
		if v < 0 {
			break
		}
		if v >= 0xd800 && v < 0xdc00 && i+12 <= len(src) && src[i+6] == '\\' && src[i+7] == 'u' {
			if lo := hexAt(src, i+8, 4); lo >= 0xdc00 && lo < 0xe000 {
				return runeBytes(utf16.DecodeRune(rune(v), rune(lo))), 12
			}
		}
		return runeBytes(rune(v)), 6
	}
	_, size := utf8.DecodeRune(src[i+1:])
	return src[i+1 : i+1+size], 1 + size
}

// percentStep reads %XX (a byte: UTF-8 sequences come out whole over their
// bytes) and %uXXXX.
func percentStep(src []byte, i int) ([]byte, int) {
	if v := hexAt(src, i+1, 2); v >= 0 {
		return []byte{byte(v)}, 3
	}
	if i+1 < len(src) && (src[i+1] == 'u' || src[i+1] == 'U') {
		if v := hexAt(src, i+2, 4); v >= 0 {
			return runeBytes(rune(v)), 6
		}
	}
	return nil, 0
}

// legacyEntities are the character references browsers read without a ';'.
var legacyEntities = map[string]string{"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "nbsp": "\u00a0"}

// entityStep reads an HTML character reference: &#DDD; &#xHH; &name; and
// the common ones written without the ';'.
func entityStep(src []byte, i int) ([]byte, int) {
	j := i + 1
	if j < len(src) && src[j] == '#' {
		j++
		hex := j < len(src) && (src[j] == 'x' || src[j] == 'X')
		if hex {
			j++
		}
		k, v := j, 0
		for ; k < len(src) && k-j < 8; k++ {
			d := hexVal(src[k])
			if d < 0 || (!hex && d > 9) {
				break
			}
			if hex {
				v = v*16 + d
			} else {
				v = v*10 + d
			}
		}
		if k == j {
			return nil, 0
		}
		if k < len(src) && src[k] == ';' {
			k++
		}
		return runeBytes(rune(v)), k - i
	}
	k := j
	for k < len(src) && k-j < 32 && (src[k] >= 'a' && src[k] <= 'z' || src[k] >= 'A' && src[k] <= 'Z' || src[k] >= '0' && src[k] <= '9') {
		k++
	}
	if k == j {
		return nil, 0
	}
	if k < len(src) && src[k] == ';' {
		if out := html.UnescapeString(string(src[i : k+1])); out != string(src[i:k+1]) {
			return []byte(out), k + 1 - i
		}
		return nil, 0
	}
	if out, ok := legacyEntities[string(src[j:k])]; ok {
		return []byte(out), k - i
	}
	return nil, 0
}

// qpStep reads quoted-printable (an e-mail's body, MIME): =XX is a byte,
// "=" at the end of a line a soft line break that stands for nothing.
func qpStep(src []byte, i int) ([]byte, int) {
	if v := hexAt(src, i+1, 2); v >= 0 {
		return []byte{byte(v)}, 3
	}
	if i+1 < len(src) && src[i+1] == '\n' {
		return []byte{}, 2
	}
	if i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n' {
		return []byte{}, 3
	}
	return nil, 0
}

// cssStep reads a CSS escape: a backslash, one to six hex digits and one
// white space character after them, if there is one.
func cssStep(src []byte, i int) ([]byte, int) {
	j := i + 1
	v := 0
	for j < len(src) && j-i-1 < 6 {
		h := hexVal(src[j])
		if h < 0 {
			break
		}
		v = v<<4 | h
		j++
	}
	if j == i+1 {
		return nil, 0
	}
	if j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n') {
		j++
	}
	return runeBytes(rune(v)), j - i
}

// octalStep reads an octal escape (\101 in JavaScript's old strings, C,
// Python's bytes): one to three octal digits, a byte.
func octalStep(src []byte, i int) ([]byte, int) {
	j, v := i+1, 0
	for j < len(src) && j-i-1 < 3 && src[j] >= '0' && src[j] <= '7' {
		v = v*8 + int(src[j]-'0')
		j++
	}
	if j == i+1 || v > 0xff {
		return nil, 0
	}
	return []byte{byte(v)}, j - i
}
