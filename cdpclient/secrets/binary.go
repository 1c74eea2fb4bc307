package secrets

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// maxRun is the longest run of base64, hex or base32 decoded to look for
// secrets inside (a HAR body, a Basic authorization); longer ones (pictures)
// are not.
const maxRun = 1 << 20

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

// binary masks v's runs that decode, at depth+1, to a secret.
func (m *matcher) binary(v *view, depth int, f found) {
	var buf []byte
	try := func(t span, from int, dec []byte) bool {
		for _, text := range m.readings(dec) {
			if len(text) >= MinLen && m.holds(text, depth+1) {
				a, b := v.origin(from, t.b)
				f(span{a, b}, masked)
				return true
			}
		}
		return false
	}
	b64, hx, b32 := alphabetRuns(v.b)
	for _, t := range b64 {
		for k := 0; k < 4 && t.b-t.a-k >= 6; k++ {
			if buf = decodeBase64(buf, v.b[t.a+k:t.b]); buf != nil && try(t, t.a+k, buf) {
				break
			}
		}
	}
	for _, t := range hx {
		for k := 0; k < 2; k++ {
			if buf = decodeHex(buf, v.b[t.a+k:t.b]); buf != nil && try(t, t.a+k, buf) {
				break
			}
		}
	}
	for _, t := range b32 {
		for k := 0; k < 8 && t.b-t.a-k >= 7; k++ {
			if buf = decodeBase32(buf, v.b[t.a+k:t.b]); buf != nil && try(t, t.a+k, buf) {
				break
			}
		}
	}
}

// readings are what decoded bytes may stand for: themselves, and UTF-16
// (little or big endian) as UTF-8 when they hold the zero bytes of UTF-16
// (of ASCII), or the matcher has a value beyond ASCII (whose UTF-16 has no
// zero bytes) and they are not UTF-8 text.
func (m *matcher) readings(dec []byte) [][]byte {
	out := [][]byte{dec}
	if len(dec) < 2*MinLen {
		return out
	}
	if zeros := bytes.Count(dec, []byte{0}); zeros*4 >= len(dec) || m.wide && !textLike(dec) {
		for _, off := range []int{0, 1} {
			for _, little := range []bool{true, false} {
				if u := fromUTF16(dec[off:], little); u != nil {
					out = append(out, u)
				}
			}
		}
	}
	return out
}

func fromUTF16(b []byte, little bool) []byte {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if little {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		} else {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		}
	}
	out := []byte(string(utf16.Decode(u)))
	if !textLike(out) {
		return nil
	}
	return out
}

// textLike reports whether b reads as text: valid UTF-8 (a byte of another
// charset here and there aside) with few control characters. What an
// ordinary word decodes to as base64 is not.
func textLike(b []byte) bool {
	bad, n := 0, 0
	for i := 0; i < len(b); n++ {
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if r == utf8.RuneError && size == 1 || r < ' ' && r != '\n' && r != '\r' && r != '\t' || r == 0x7f || !unicode.IsPrint(r) && !unicode.IsSpace(r) && r >= utf8.RuneSelf {
			bad++
		}
	}
	return bad*8 <= n
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
	b64, _, _ := alphabetRuns(text)
	return len(b64) > 0
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

// alphabetRuns are the runs of b long enough to hold a secret in base64 (6
// characters or more), hex (8) and base32 (7), with their '=' padding;
// those longer than maxRun (pictures) are left.
func alphabetRuns(b []byte) (b64, hx, b32 []span) {
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
			b64 = append(b64, span{i, end})
			for _, sub := range []struct {
				bit  uint8
				min  int
				runs *[]span
			}{{inHex, 8, &hx}, {inBase32, 7, &b32}} {
				for k := i; k < j; {
					if alphabets[b[k]]&sub.bit == 0 {
						k++
						continue
					}
					l := k
					for l < j && alphabets[b[l]]&sub.bit != 0 {
						l++
					}
					if l-k >= sub.min {
						*sub.runs = append(*sub.runs, span{k, min(end, l+(end-j)*btoi(l == j))})
					}
					k = l
				}
			}
		}
		i = end
	}
	return b64, hx, b32
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// decodeBase64 decodes a run in the standard or URL alphabet, padded or not,
// ignoring a last incomplete group, into buf; nil when it is neither.
func decodeBase64(buf, run []byte) []byte {
	s := bytes.TrimRight(run, "=")
	if len(s)%4 == 1 {
		s = s[:len(s)-1]
	}
	enc := base64.RawStdEncoding
	if bytes.ContainsAny(s, "-_") {
		enc = base64.RawURLEncoding
	}
	out := grow(buf, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		return nil
	}
	return out[:n]
}

// decodeHex decodes a run of hex digits into buf, a last odd digit left.
func decodeHex(buf, run []byte) []byte {
	run = bytes.TrimRight(run, "=")
	run = run[:len(run)&^1]
	out := grow(buf, len(run)/2)
	if _, err := hex.Decode(out, run); err != nil {
		return nil
	}
	return out
}

// base32Tail is the longest whole tail of a group of len%8 characters.
var base32Tail = [8]int{0, 0, 2, 2, 4, 5, 5, 7}

// decodeBase32 decodes a run in RFC 4648's alphabet (capitals), padded or
// not, ignoring a last incomplete group, into buf.
func decodeBase32(buf, run []byte) []byte {
	s := bytes.TrimRight(run, "=")
	s = s[:len(s)/8*8+base32Tail[len(s)%8]]
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	out := grow(buf, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		return nil
	}
	return out[:n]
}

// grow is buf with room for n bytes, its length n.
func grow(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, n, max(n, 64))
	}
	return buf[:n]
}
