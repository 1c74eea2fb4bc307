package secrets

import (
	"bytes"
	"unicode/utf8"
)

// needle is one secret as found in canonical text: the whole of it, or,
// for a value typed key by key, the start of it the page saw on the way (a
// strength meter, a search-as-you-type request), two thirds of it or more,
// found as far as it goes.
type needle struct {
	canon []byte // what is searched
	whole []byte // the secret; canon is a prefix of it
	// anchor is the longest run of ASCII letters and digits of the secret,
	// in lower case: encoders leave those as they are, so a text without it
	// holds the secret only in base64. Nil when shorter than 3.
	anchor []byte
	// old are the words around the value where the page showed it before
	// it was entered (exempt.go); nil when it is masked wherever it shows.
	old map[neighbours]bool
}

func newMatcher(entries []known) *matcher {
	m := &matcher{}
	seen := map[string][2]int{} // canonical text → its needles
	add := func(b []byte, e entry) {
		c := canonical(&view{b: b}).b
		if t := bytes.Trim(c, "+"); len(t) >= 3 {
			c = t
		}
		// What is searched holds MinLen characters or more, as the value
		// remembered does: "  two" (a start typed key by key) searched as
		// "two" would mask "network".
		if utf8.RuneCount(c) < MinLen {
			return
		}
		if at, ok := seen[string(c)]; ok {
			// The same canonical value known twice: masked where either
			// would be.
			if e.plain || len(e.old) == 0 {
				for i := at[0]; i < at[1]; i++ {
					m.needles[i].old = nil
				}
			}
			return
		}
		first := len(m.needles)
		defer func() { seen[string(c)] = [2]int{first, len(m.needles)} }()
		needles := []needle{{canon: c, whole: c}}
		if p := typedPrefix(c); e.typed && p < len(c) {
			needles = append(needles, needle{canon: c[:p], whole: c})
		}
		for _, n := range needles {
			n.anchor = anchorOf(n.canon)
			if !e.plain && len(e.old) > 0 {
				n.old = oldWords(e.old, n)
			}
			m.full = m.full || n.anchor == nil
			m.needles = append(m.needles, n)
		}
		m.literal = m.literal || bytes.ContainsAny(c, `\\%&=`)
		m.maxLen = max(m.maxLen, len(c))
		m.wide = m.wide || utf8.RuneCount(c) != len(c)
	}
	for _, k := range entries {
		add([]byte(k.v), k.e)
		if l, ok := latin1(k.v); ok {
			add(l, k.e) // form data of a page in a Western charset
		}
	}
	if len(m.needles) == 0 {
		return nil
	}
	m.perNeedle = len(m.needles) <= fewNeedles
	return m
}

// latin1 is v as a page in a Western charset (windows-1252) sends it in a
// form: its characters as single bytes, those the charset lacks as &#N;,
// which a later view reads back as UTF-8. ok is false when no character
// differs from UTF-8.
func latin1(v string) ([]byte, bool) {
	out := make([]byte, 0, len(v))
	differs := false
	for _, r := range v {
		switch b, ok := cp1252[r]; {
		case ok:
			out = append(out, b)
			differs = true
		case r >= 0xa0 && r <= 0xff:
			out = append(out, byte(r))
			differs = true
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return out, differs
}

// cp1252 are the characters windows-1252 puts at 0x80-0x9F.
var cp1252 = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a,
	'‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
	'˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
}

// typedPrefix is the length in bytes of the shortest start of c searched
// for: two thirds of its characters, 6 at least; len(c) (none) for a secret
// shorter than 9, whose start would be an ordinary word ("admi" of "admin").
func typedPrefix(c []byte) int {
	n := 0
	for i := 0; i < len(c); n++ {
		_, size := utf8.DecodeRune(c[i:])
		i += size
	}
	if n < 9 {
		return len(c)
	}
	want := max(6, (2*n+2)/3)
	i := 0
	for k := 0; k < want && i < len(c); k++ {
		_, size := utf8.DecodeRune(c[i:])
		i += size
	}
	return i
}

func anchorOf(c []byte) []byte {
	var best []byte
	for i := 0; i < len(c); {
		j := i
		for j < len(c) && (c[j] >= 'a' && c[j] <= 'z' || c[j] >= '0' && c[j] <= '9') {
			j++
		}
		if j-i > len(best) {
			best = c[i:j]
		}
		i = j + 1
	}
	if len(best) < 3 {
		return nil
	}
	return best
}
