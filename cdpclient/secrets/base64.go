package secrets

import (
	"bytes"
	"encoding/base64"
)

// maxBase64 is the longest base64 run decoded to look for secrets inside
// (a HAR body, a Basic authorization); longer ones (pictures) are not.
const maxBase64 = 1 << 20

// base64 masks every base64 run of text (also as JSON or percent encoding
// leave it) whose decoded bytes hold a secret: credentials in an
// Authorization header, a body a HAR keeps as base64.
func (m *matcher) base64(text []byte, out *[]span) {
	root := &view{b: text}
	views := []*view{root}
	for _, d := range decoders[:2] { // \/ in JSON, %2B %2F %3D in URLs
		if bytes.IndexByte(text, d.trigger) >= 0 {
			if v := decode(root, []decoder{d}); v != nil {
				views = append(views, v)
			}
		}
	}
	for _, v := range views {
		for _, t := range base64Runs(v.b) {
			dec := decodeBase64(v.b[t.a:t.b])
			if len(dec) >= MinLen && m.holds(dec) {
				a, b := v.origin(t.a, t.b)
				*out = append(*out, span{a, b})
			}
		}
	}
}

// holds reports whether decoded base64 holds a secret, as it is or under one
// layer of encoding.
func (m *matcher) holds(dec []byte) bool {
	if !m.full {
		lower := asciiLower(dec)
		any := false
		for _, n := range m.needles {
			if bytes.Contains(lower, n.anchor) {
				any = true
				break
			}
		}
		if !any {
			return false
		}
	}
	found := false
	m.walk(&view{b: dec}, maxDepth-1, map[uint64]bool{}, func(span) { found = true })
	return found
}

func base64Char(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// base64Runs are the runs of base64 characters (with their '=' padding) long
// enough to hold a secret.
func base64Runs(b []byte) []span {
	var out []span
	for i := 0; i < len(b); {
		if !base64Char(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && base64Char(b[j]) {
			j++
		}
		end := j
		for end < len(b) && end-j < 2 && b[end] == '=' {
			end++
		}
		if j-i >= 6 && j-i <= maxBase64 {
			out = append(out, span{i, end})
		}
		i = end
	}
	return out
}

// decodeBase64 decodes a run in the standard or URL alphabet, padded or not,
// ignoring a last incomplete group; nil when it is neither.
func decodeBase64(run []byte) []byte {
	s := bytes.TrimRight(run, "=")
	if len(s)%4 == 1 {
		s = s[:len(s)-1]
	}
	enc := base64.RawStdEncoding
	if bytes.ContainsAny(s, "-_") {
		enc = base64.RawURLEncoding
	}
	out := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		return nil
	}
	return out[:n]
}
