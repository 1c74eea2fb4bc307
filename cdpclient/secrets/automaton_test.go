package secrets

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf16"
)

// The automaton finds every occurrence of every word, overlapping ones and
// words inside others too, as a search word by word does: on random texts
// over a small alphabet (so words overlap a lot), with and without folding
// capitals, and with bytes beyond ASCII.
func TestAutomatonFindsWhatIndexFinds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(47, 1))
	pick := func(alphabet string, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	for round := range 300 {
		fold := round%2 == 1
		alphabet, textAlphabet := "ab\xc3\xa9", "ab\xc3\xa9xAB"
		if round%3 == 0 {
			alphabet, textAlphabet = "abc~", "abcABC~ "
		}
		var words [][]byte
		for range 1 + rng.IntN(12) {
			w := pick(alphabet, 1+rng.IntN(6))
			if !slices.ContainsFunc(words, func(x []byte) bool { return bytes.Equal(x, w) }) {
				words = append(words, w)
			}
		}
		text := pick(textAlphabet, rng.IntN(200))
		type hit struct{ word, end int }
		var want, got []hit
		search := text
		if fold {
			search = asciiLower(text)
		}
		for wi, w := range words {
			for i := 0; ; {
				k := bytes.Index(search[i:], w)
				if k < 0 {
					break
				}
				want = append(want, hit{wi, i + k + len(w)})
				i += k + 1
			}
		}
		a := newAutomaton(words, fold)
		a.scan(text, func(w, end int) { got = append(got, hit{w, end}) })
		order := func(x, y hit) int {
			if x.end != y.end {
				return x.end - y.end
			}
			return x.word - y.word
		}
		slices.SortFunc(want, order)
		slices.SortFunc(got, order)
		if !slices.Equal(got, want) {
			t.Fatalf("words %q in %q (fold %v):\n got %v\nwant %v", words, text, fold, got, want)
		}
		if a.any(text) != (len(want) > 0) {
			t.Fatalf("words %q in %q (fold %v): any says %v", words, text, fold, a.any(text))
		}
	}
	if newAutomaton(nil, true).any([]byte("anything")) {
		t.Error("an automaton of no words found one")
	}
}

// The canonical bytes a search looks at are those of the canonical view,
// whatever the text holds: the corpus's pages, and the table's secrets in
// every encoding (fullwidth letters, zero-width characters, capitals, white
// space of every kind).
func TestCanonicalBytesAreTheCanonicalView(t *testing.T) {
	t.Parallel()
	var buf []byte
	for _, text := range equivalenceTexts(t) {
		buf = canonicalBytes([]byte(text), buf)
		if want := canonical(&view{b: []byte(text)}).b; !bytes.Equal(buf, want) {
			t.Fatalf("canonicalBytes(%.80q) = %.80q, the view has %.80q", text, buf, want)
		}
	}
}

// What fromUTF16 finds text-like without making the text is what textLike
// says of the text made: on random bytes, UTF-16 of text (surrogate pairs,
// controls, unpaired surrogates) in both byte orders.
func TestUTF16TextLikeIsTextLike(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(47, 3))
	units := []uint16{'a', ' ', '\n', 1, 0x7f, 0xe9, 0x4e2d, 0xd83d, 0xde00, 0xdc00, 0xfffe, 0x200b, 0x85}
	for round := range 20000 {
		b := make([]byte, rng.IntN(40))
		if round%2 == 0 {
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
		} else {
			for i := 0; i+1 < len(b); i += 2 {
				u := units[rng.IntN(len(units))]
				b[i], b[i+1] = byte(u), byte(u>>8)
			}
		}
		for _, little := range []bool{true, false} {
			u := make([]uint16, len(b)/2)
			for i := range u {
				u[i] = utf16Unit(b, i, little)
			}
			if want := textLike([]byte(string(utf16.Decode(u)))); utf16TextLike(b, little) != want {
				t.Fatalf("% x (little endian %v): textLike %v", b, little, want)
			}
		}
	}
}
