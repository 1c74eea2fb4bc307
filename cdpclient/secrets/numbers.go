package secrets

import (
	"bytes"
	"unicode/utf16"
)

// A value's bytes or characters written as a list of decimal numbers (what
// evaluate answers for new TextEncoder().encode(v), a Uint8Array; a page's
// or a script's [...v].map(c => c.charCodeAt(0))) hold none of its
// letters: a run of MinLen numbers or more, each after a comma (and white
// space), is read as bytes when every number is one (UTF-8, and UTF-16 as
// binary runs are) or else as UTF-16 code units or code points, and masked
// whole when that holds a secret. Only in the text given out: a list is
// not looked for inside other encodings.

// numberRuns masks the runs of decimal numbers in text that stand for a
// secret.
func (m *matcher) numberRuns(text []byte, f found) {
	for i := 0; i < len(text); {
		// A run holds a comma between two numbers: found by its commas
		// (bytes.IndexByte), not by reading every byte.
		k := bytes.IndexByte(text[i:], ',')
		if k < 0 {
			return
		}
		k += i
		if k == 0 || !isDigit(text[k-1]) {
			i = k + 1
			continue
		}
		i = k - 1
		for i > 0 && isDigit(text[i-1]) {
			i--
		}
		if i > 0 && text[i-1] == '.' {
			i = k + 1 // a decimal's fraction
			continue
		}
		start := i
		var nums []int
		end := i
		for {
			n, j := 0, i
			for j < len(text) && isDigit(text[j]) && j-i < 8 {
				n = n*10 + int(text[j]-'0')
				j++
			}
			if j == i || j < len(text) && (isDigit(text[j]) || text[j] == '.' && j+1 < len(text) && isDigit(text[j+1])) {
				break
			}
			nums = append(nums, n)
			end = j
			k := j
			if k < len(text) && text[k] == ',' {
				k++
				for k < len(text) && (text[k] == ' ' || text[k] == '\n' || text[k] == '\t') {
					k++
				}
			}
			if k == j || k >= len(text) || !isDigit(text[k]) {
				break
			}
			i = k
		}
		if len(nums) >= MinLen && len(nums) <= maxRun && m.numbersHold(nums) {
			f(span{start, end}, masked)
		}
		i = max(end, k+1)
	}
}

// numbersHold reports whether nums, as bytes or as characters, hold a
// secret.
func (m *matcher) numbersHold(nums []int) bool {
	bytesToo := true
	units := make([]uint16, 0, len(nums))
	var runes []rune
	for _, n := range nums {
		if n > 0xff {
			bytesToo = false
		}
		if n > 0x10ffff {
			return false
		}
		if n <= 0xffff {
			units = append(units, uint16(n))
		}
		runes = append(runes, rune(n))
	}
	holds := func(b []byte) bool { return m.holds(b, 1) }
	if bytesToo {
		b := make([]byte, len(nums))
		for i, n := range nums {
			b[i] = byte(n)
		}
		if m.readings(b, holds) {
			return true
		}
	}
	if len(units) == len(nums) && holds([]byte(string(utf16.Decode(units)))) {
		return true
	}
	return holds([]byte(string(runes)))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
