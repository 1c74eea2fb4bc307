package secrets

import (
	"bytes"
	"unicode/utf8"
)

// regions are the parts of text to search: around each anchor found, and
// escapes and invisible or compatibility characters a secret's letters may
// be written in, out to the whole lines they are in; or the whole text in
// overlapping chunks.
func (m *matcher) regions(text []byte) []span {
	reach := m.maxLen * spread
	if m.full {
		var out []span
		for a := 0; a < len(text); a += chunk {
			out = append(out, span{a, min(len(text), a+chunk+reach)})
			if a+chunk+reach >= len(text) {
				break
			}
		}
		return out
	}
	out := escapeRuns(text, reach)
	out = append(out, oddRunes(text, reach)...)
	m.anchorsIn(text, func(at, n int) {
		out = append(out, span{max(0, at-reach), min(len(text), at+n+reach)})
	})
	out = merge(out)
	for i := range out {
		out[i] = wholeLines(text, out[i])
	}
	return merge(out)
}

// wholeLines widens s to the lines it starts and ends in, by lineReach at
// most.
func wholeLines(text []byte, s span) span {
	lo := max(0, s.a-lineReach)
	if k := bytes.LastIndexByte(text[lo:s.a], '\n'); k >= 0 {
		lo += k + 1
	}
	hi := min(len(text), s.b+lineReach)
	if k := bytes.IndexByte(text[s.b:hi], '\n'); k >= 0 {
		hi = s.b + k
	}
	return span{lo, hi}
}

// escapeRuns are the regions around runs of MinLen escapes or more, a
// character or two apart at most (text an encoder wrote all in escapes,
// letters too, or with escapes between its letters, holds no anchor) and around
// quoted-printable's soft line breaks, which may split an anchor.
func escapeRuns(text []byte, reach int) []span {
	var out []span
	start, count, end := 0, 0, -1
	for i := 0; i < len(text); {
		k := bytes.IndexAny(text[i:], `\%&=`)
		if k < 0 {
			break
		}
		i += k
		n := 0
		for _, set := range [][]decoder{decoders, alternates} {
			for _, d := range set {
				if text[i] == d.trigger {
					_, dn := d.step(text, i)
					n = max(n, dn)
				}
			}
		}
		if n == 0 {
			i++
			continue
		}
		if text[i] == '=' && (text[i+1] == '\n' || text[i+1] == '\r') {
			out = append(out, span{max(0, i-reach), min(len(text), i+n+reach)})
		}
		if i > end+2 { // a run goes on over a character or two between escapes (zero-width \u200b between letters)
			if count >= MinLen {
				out = append(out, span{max(0, start-reach), min(len(text), end+reach)})
			}
			start, count = i, 0
		}
		count++
		i += n
		end = i
	}
	if count >= MinLen {
		out = append(out, span{max(0, start-reach), min(len(text), end+reach)})
	}
	return out
}

// oddRunes are the regions around characters canonical leaves out or folds
// (zero-width characters between a secret's letters, fullwidth letters):
// such a secret holds no anchor in the text as it is.
func oddRunes(text []byte, reach int) []span {
	var out []span
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if invisible(r) || compatible(r) {
			if n := len(out); n > 0 && out[n-1].b >= i {
				out[n-1].b = min(len(text), i+size+reach)
			} else {
				out = append(out, span{max(0, i-reach), min(len(text), i+size+reach)})
			}
		}
		i += size
	}
	return out
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
