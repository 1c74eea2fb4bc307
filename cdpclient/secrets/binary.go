package secrets

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxRun is the longest run of base64, hex or base32 decoded to look for
// secrets inside (a HAR body, a Basic authorization); longer ones (pictures)
// are not.
const maxRun = 1 << 20

// rememberedRun is the longest decoded text whose answer binary keeps for
// the rest of a text.
const rememberedRun = 256

// A run of base64 (an Authorization header, a HAR body, a token a page
// builds with btoa), hex or base32 is masked whole when what it decodes to
// holds a secret. A run is decoded from each alignment it may start at: a
// base64 text that follows other characters of its alphabet (/v1/RWs0…, or
// 'Q'+btoa(…)) starts inside the run. What a run decodes to is read as
// UTF-8 and, when it looks like it, as UTF-16 (what btoa of a JavaScript
// string's bytes or .NET's Unicode encoding gives), and searched again, so
// encodings nest.

// binaryRuns masks the runs of text (also as JSON or percent encoding leave
// them: \/ in JSON, %2B %2F %3D in URLs) that decode to a secret.
func (m *matcher) binaryRuns(text []byte, f found) {
	root := &view{b: text}
	m.binary(root, 0, f)
	for _, d := range decoders[:2] {
		if bytes.IndexByte(text, d.trigger) >= 0 {
			if v := decode(root, []decoder{d}); v != nil {
				m.binary(v, 0, f)
			}
		}
	}
}

// binary masks v's runs that decode, at depth+1, to a secret. In a view
// that undid escapes of its parent, only the runs the escapes touched are
// new.
func (m *matcher) binary(v *view, depth int, f found) {
	var buf []byte
	// What holds said of each short text met before, when it searches
	// every text (a matcher with a needle without an anchor): a page
	// repeats its words, and a word's runs decode the same each time.
	var said map[string]bool
	holds := func(text []byte) bool {
		if len(text) < MinLen {
			return false
		}
		if !m.full || len(text) > rememberedRun {
			return m.holds(text, depth+1)
		}
		if h, ok := said[string(text)]; ok {
			return h
		}
		h := m.holds(text, depth+1)
		if said == nil {
			said = map[string]bool{}
		}
		said[string(text)] = h
		return h
	}
	try := func(t span, from int, dec []byte) bool {
		if dec == nil {
			return false
		}
		buf = dec[:0]
		if m.readings(dec, holds) {
			a, b := v.origin(from, t.b)
			f(span{a, b}, masked)
			return true
		}
		return false
	}
	// Runs come in order: the segment they start in is found going on.
	seg := 0
	fresh := func(t span) bool {
		if v.parent == nil {
			return true
		}
		for seg+1 < len(v.segs) && v.segs[seg+1].at <= t.a {
			seg++
		}
		s := v.segs[seg]
		return !s.same || s.at > t.a || seg+1 < len(v.segs) && v.segs[seg+1].at < t.b
	}
	alphabetRuns(v.b, func(t span, in uint8) bool {
		if !fresh(t) {
			return true
		}
		switch in {
		case inBase64:
			for k := 0; k < 4 && t.b-t.a-k >= 6; k++ {
				if try(t, t.a+k, decodeBase64(buf, v.b[t.a+k:t.b])) {
					break
				}
			}
		case inHex:
			for k := 0; k < 2; k++ {
				if try(t, t.a+k, decodeHex(buf, v.b[t.a+k:t.b])) {
					break
				}
			}
		case inBase32:
			for k := 0; k < 8 && t.b-t.a-k >= 7; k++ {
				if try(t, t.a+k, decodeBase32(buf, v.b[t.a+k:t.b])) {
					break
				}
			}
		}
		return true
	})
}

// readings calls ok with what decoded bytes may stand for, until it says
// yes: themselves, and UTF-16 (little or big endian) as UTF-8 when they hold
// the zero bytes of UTF-16 (of ASCII), or the matcher has a value beyond
// ASCII (whose UTF-16 has no zero bytes) and they are not UTF-8 text.
func (m *matcher) readings(dec []byte, ok func([]byte) bool) bool {
	if ok(dec) {
		return true
	}
	if len(dec) < 2*MinLen {
		return false
	}
	if zeros := bytes.Count(dec, []byte{0}); zeros*4 >= len(dec) || m.wide && !textLike(dec) {
		for _, off := range []int{0, 1} {
			for _, little := range []bool{true, false} {
				if u := fromUTF16(dec[off:], little); u != nil && ok(u) {
					return true
				}
			}
		}
	}
	return false
}

// textLike reports whether b reads as text: valid UTF-8 (a byte of another
// charset here and there aside) with few control characters, one in eight
// at most. What an ordinary word decodes to as base64 is not.
func textLike(b []byte) bool {
	bad, budget := 0, len(b)/8
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
				if bad++; bad > budget {
					return false
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if r == utf8.RuneError && size == 1 || !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			if bad++; bad > budget {
				return false
			}
		}
	}
	return true
}

// encoded reports whether text may hold a secret under another layer: it
// has an escape, or a run of base64's alphabet.
func encoded(text []byte) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\', '%', '&', '=':
			for _, set := range [][]decoder{decoders, alternates} {
				for _, d := range set {
					if d.trigger == text[i] {
						if _, n := d.step(text, i); n > 0 {
							return true
						}
					}
				}
			}
		}
	}
	found := false
	alphabetRuns(text, func(span, uint8) bool { found = true; return false })
	return found
}

// Which alphabets a byte is in.
const (
	inBase64 = 1 << iota
	inHex
	inBase32
)

var alphabets = func() (t [256]uint8) {
	for c := range 256 {
		b := byte(c)
		if b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || strings.IndexByte("+/-_", b) >= 0 {
			t[c] |= inBase64
		}
		if hexVal(b) >= 0 {
			t[c] |= inHex
		}
		if b >= 'A' && b <= 'Z' || b >= '2' && b <= '7' {
			t[c] |= inBase32
		}
	}
	return t
}()

// alphabetRuns calls visit with each run of b long enough to hold a secret
// in base64 (6 characters or more), and the runs of hex (8) and base32 (7)
// inside it, with their '=' padding, until it says stop; runs longer than
// maxRun (pictures) are left.
func alphabetRuns(b []byte, visit func(t span, in uint8) bool) {
	for i := 0; i < len(b); {
		if alphabets[b[i]]&inBase64 == 0 {
			i++
			continue
		}
		j := i
		for j < len(b) && alphabets[b[j]]&inBase64 != 0 {
			j++
		}
		end := j
		for end < len(b) && end-j < 6 && b[end] == '=' {
			end++
		}
		if j-i >= 6 && j-i <= maxRun {
			if !visit(span{i, end}, inBase64) {
				return
			}
			// Hex of text has digits; base32 has capitals or digits.
			digits, capitals := false, false
			for _, c := range b[i:j] {
				digits = digits || c >= '0' && c <= '9'
				capitals = capitals || c >= 'A' && c <= 'Z'
			}
			for _, sub := range [...]struct {
				in  uint8
				min int
				may bool
			}{{inHex, 8, digits}, {inBase32, 7, digits || capitals}} {
				for k := i; k < j && sub.may; {
					if alphabets[b[k]]&sub.in == 0 {
						k++
						continue
					}
					l := k
					for l < j && alphabets[b[l]]&sub.in != 0 {
						l++
					}
					if l-k >= sub.min && !visit(span{k, min(end, l+(end-j)*btoi(l == j))}, sub.in) {
						return
					}
					k = l
				}
			}
		}
		i = end
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
