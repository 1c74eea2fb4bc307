package secrets

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A value cdpmcp entered into a page that showed it already ("wrong" on a
// page that says "Wrong password?", "password" under a "Password" label) is
// the page's word as much as a secret. Blanking every such word would
// rewrite what the model reads, and tell it nothing a secret needs hidden:
// the page showed those words before. So where a found value stands between
// the same words as where the page showed it before it was entered (the
// nearest word on each side, within its line and not across markup; none at
// all for a label or an attribute of its own), it is left as it is; an echo
// in other words ("you typed wrong") is masked. A JSON string, a URL or form
// parameter or a field's value that is exactly the secret is masked whatever
// words are around it: that is where a value goes. Values not entered into a
// page (--secret-env, a login job's password, what a person types in the
// live view) are masked wherever they show.
//
// Whatever the value, cdpmcp's own markup stays: the element tag of a
// snapshot line (its tag name, attribute names and the type, role or for
// it names) and the keys of its JSON answers, when the word is one of
// cdpmcp's vocabulary (markupWords); a page cannot put other words there.

// A short value ("test", "2024", "Admin") is a piece of many words and
// numbers: "contest", "Latest", an order number whose hex holds it. Masked
// inside them it would rewrite the page a model reads and point at the
// value besides. So a value shorter than wholeWordLen characters is found
// only where it stands whole in the text given out (no letter or digit
// glued to either side), however it was encoded there; a longer one, which
// no page holds by chance, wherever it shows.
const wholeWordLen = 8

// short reports whether n's value is found only where it stands whole.
func (n *needle) short() bool { return utf8.RuneCount(n.whole) < wholeWordLen }

// glued reports whether a letter or a digit touches b[a:end) on either side.
func glued(b []byte, a, end int) bool {
	if r, _ := utf8.DecodeLastRune(b[:a]); a > 0 && wordRune(r) {
		return true
	}
	r, _ := utf8.DecodeRune(b[end:])
	return end < len(b) && wordRune(r)
}

// neighbours are the words nearest a value on each side ("" for none).
type neighbours struct{ before, after string }

// classify says what the value found at b[a:end) is; tags is b's (markup).
func classify(b []byte, a, end int, n *needle, tags *tagCursor) kind {
	if markup(b, a, end, tags) {
		return exempt
	}
	if n.old == nil {
		return masked
	}
	if valueAt(b, a, end) {
		return forced
	}
	if n.old[around(b, a, end)] {
		return exempt
	}
	return masked
}

// oldWords are the neighbours of n wherever the page's old text (lines,
// text nodes, attribute values) holds it.
func oldWords(units []string, n needle) map[neighbours]bool {
	out := map[neighbours]bool{}
	probe := &matcher{needles: []needle{{canon: n.canon, whole: n.whole}}, perNeedle: true}
	for _, u := range units {
		v := &view{b: []byte(u)}
		probe.search(v, func(s span, _ kind) { out[around(v.b, s.a, s.b)] = true })
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// wordRune says whether r belongs to a word: a letter or a digit.
func wordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// stop ends the search for a neighbouring word: a line's end, markup, the
// parts of a URL's query, the end of a snapshot line's ref ("12[:]News":
// the ref of the same text differs from one snapshot to the next).
func stop(r rune) bool {
	switch r {
	case '\n', '\r', '<', '>', '"', '?', '&', '=', ']':
		return true
	}
	return false
}

// around are the words nearest b[a:end) on each side.
func around(b []byte, a, end int) neighbours {
	return neighbours{wordBefore(b, a), wordAfter(b, end)}
}

func wordBefore(b []byte, a int) string {
	i := a
	for i > 0 {
		r, size := utf8.DecodeLastRune(b[:i])
		if stop(r) {
			return ""
		}
		if wordRune(r) {
			break
		}
		i -= size
	}
	j := i
	for j > 0 {
		r, size := utf8.DecodeLastRune(b[:j])
		if !wordRune(r) {
			break
		}
		j -= size
	}
	return strings.ToLower(string(b[j:i]))
}

func wordAfter(b []byte, end int) string {
	i := end
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if stop(r) {
			return ""
		}
		if wordRune(r) {
			break
		}
		i += size
	}
	j := i
	for j < len(b) {
		r, size := utf8.DecodeRune(b[j:])
		if !wordRune(r) {
			break
		}
		j += size
	}
	return strings.ToLower(string(b[i:j]))
}

// valueAt reports whether b[a:end) is a whole value: the whole text, a JSON
// string (not a key), a URL or form parameter's value, a value= attribute.
func valueAt(b []byte, a, end int) bool {
	if len(bytes.TrimSpace(b[:a])) == 0 && len(bytes.TrimSpace(b[end:])) == 0 {
		return true
	}
	if a == 0 {
		return false
	}
	before, after := b[a-1], byte(0)
	if end < len(b) {
		after = b[end]
	}
	switch before {
	case '"', '\'':
		if after != before {
			return false
		}
		if hasSuffixFold(b[:a-1], "value=") {
			return true
		}
		if before == '\'' {
			return false
		}
		k := bytes.TrimRight(b[:a-1], " \t\r\n")
		rest := bytes.TrimLeft(b[end+1:], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return false // a key
		}
		return len(k) == 0 || strings.IndexByte(":[,", k[len(k)-1]) >= 0
	case '=':
		if end < len(b) && strings.IndexByte("&#;\"'> \t\r\n", after) < 0 {
			return false
		}
		i := a - 1
		for i > 0 && paramByte(b[i-1]) {
			i--
		}
		if i == a-1 {
			return false
		}
		return i == 0 || strings.IndexByte("?&; \t\r\n\"'", b[i-1]) >= 0
	}
	return false
}

func paramByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-.[]%+", c) >= 0
}

func hasSuffixFold(b []byte, suffix string) bool {
	return len(b) >= len(suffix) && strings.EqualFold(string(b[len(b)-len(suffix):]), suffix)
}
