package snapshot

import (
	"unicode"
	"unicode/utf8"
)

// Estimate approximates how many o200k tokens s costs. It errs on the high side
// (by about 5–15% on the bench pages): a budget met by the estimate is met by the
// real tokenizer.
//
// The model: a word of letters costs one token per 8 letters (common English
// words are one token with their leading space), a run of digits one per three,
// a run of other ASCII symbols one per two ("[:", "]<", "</" merge), a word in
// another alphabetic script one per four letters, and any other character one.
func Estimate(s string) int {
	n := estimate(s)
	return n + (n+9)/10
}

func estimate(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ' ':
			i += size
		case r < utf8.RuneSelf && (unicode.IsLetter(r)):
			j := i
			for j < len(s) && s[j] < utf8.RuneSelf && unicode.IsLetter(rune(s[j])) {
				j++
			}
			n += (j - i + 7) / 8
			i = j
		case r >= '0' && r <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n += (j - i + 2) / 3
			i = j
		case r < utf8.RuneSelf:
			j := i
			for j < len(s) && s[j] < utf8.RuneSelf && s[j] != ' ' && !unicode.IsLetter(rune(s[j])) && !unicode.IsDigit(rune(s[j])) {
				j++
			}
			n += (j - i + 1) / 2
			i = j
		case unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic):
			j := i
			for j < len(s) {
				r2, s2 := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r2) {
					break
				}
				j += s2
			}
			n += (utf8.RuneCountInString(s[i:j]) + 3) / 4
			i = j
		default:
			n++
			i += size
		}
	}
	return n
}
