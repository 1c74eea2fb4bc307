package secrets

import (
	"strings"
	"unicode/utf8"
)

// Cut returns where to cut s to keep at most its first n bytes without
// splitting a value of a root registry (every tenant's answers hide those),
// a Mask or a character: n, or the start of what it would split. A tenant's
// own values are not known here (a cut knows no caller): the cut is
// remembered instead, and the redactor of the answer it ends up in masks the
// part of one of its tenant's values the cut left, and only there (cutmarks.go).
func Cut(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	// A Mask already there.
	if i := strings.LastIndex(s[max(0, n-len(Mask)+1):n], "["); i >= 0 {
		at := max(0, n-len(Mask)+1) + i
		if strings.HasPrefix(s[at:], Mask) && at+len(Mask) > n {
			n = at
		}
	}
	if ms := rootMatchers(); len(ms) > 0 {
		b := []byte(s)
		var spans []span
		for _, m := range ms {
			spans = append(spans, m.find(b)...)
		}
		spans = merge(spans)
		for i := len(spans) - 1; i >= 0; i-- {
			if sp := spans[i]; sp.a < n && sp.b > n {
				n = sp.a
			}
		}
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	recordCut(s, n)
	return n
}

// CutRunes is Cut for a limit of n characters: the byte index to cut at.
func CutRunes(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return Cut(s, i)
}
