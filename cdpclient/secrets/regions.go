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
		n := escapeAt(text, i)
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

// escapeAt is the length of the escape at text[i:], 0 for none. An escape
// that stands for an escape's first character (\\ of \\u0054 in a string
// escaped twice, %25 of %2541, &amp; of &amp;#84;) takes the escape it
// starts in the next layer with it, down to maxDepth layers: the letters
// of the next layer's escape are no gap between escapes.
func escapeAt(text []byte, i int) int {
	return escapeIn(text[i:min(len(text), i+nestedReach)], maxDepth)
}

// nestedReach bounds the bytes an escape escaped maxDepth times takes.
const nestedReach = 64

// escapeIn is the length of the escape text starts with, depth layers deep
// at most.
func escapeIn(text []byte, depth int) int {
	n, out := stepAt(text, 0)
	if n == 0 || depth == 1 || len(out) != 1 || !isTrigger(out[0]) {
		return n
	}
	// The next layer: text's escapes undone one by one from its start,
	// where each of its bytes came from.
	var next []byte
	var from []int
	for j := 0; j < len(text); {
		k, o := stepAt(text, j)
		if k == 0 {
			k, o = 1, text[j:j+1]
		}
		for range o {
			from = append(from, j)
		}
		next = append(next, o...)
		j += k
	}
	from = append(from, len(text))
	k := escapeIn(next, depth-1)
	if k <= 1 || k >= len(from) {
		return n
	}
	// The source bytes up to where the decoded escape ends: the byte after
	// it came from the source's next escape, or the one past the end.
	return max(n, from[k])
}

// stepAt is the longest escape any decoder reads at text[i:] and what it
// stands for.
func stepAt(text []byte, i int) (int, []byte) {
	n, out := 0, []byte(nil)
	for _, set := range [][]decoder{decoders, alternates} {
		for _, d := range set {
			if text[i] == d.trigger {
				if o, dn := d.step(text, i); dn > n {
					n, out = dn, o
				}
			}
		}
	}
	return n, out
}

func isTrigger(c byte) bool { return c == '\\' || c == '%' || c == '&' || c == '=' }
