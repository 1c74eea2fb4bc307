package secrets

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The tag cursor gives each place of a text the answer a fresh look from
// the text's start gives, when asked of places in order (as a search
// finds values) and when asked of an earlier place again: on element
// lines with quoted values holding '>' and '"', on JSON answers whose
// lines are escapes, and on text a page wrote around them.
func TestTagCursorAnswersAsAFreshLook(t *testing.T) {
	parts := []string{
		"12[:]<input type=password filled>", "13[:]<select role=combobox options=\"a>b,c\" multiple>",
		"14[:]<a href=\"/x?\\\"q\\\"\">", "_[:]text ", "password ", "button", " for=", "type=", "role=",
		"\"", ">", "<", "[:]", "[:]<", "\n", "\\n", " ", "=", "checkbox ", "</button>", "\"delta\":",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		var s strings.Builder
		for range 5 + rng.IntN(60) {
			s.WriteString(parts[rng.IntN(len(parts))])
		}
		b := []byte(s.String())
		// Every place a word of the markup's vocabulary starts.
		type place struct{ a, end int }
		var places []place
		for a := range b {
			for w := range markupWords {
				if end := a + len(w); end <= len(b) && strings.EqualFold(string(b[a:end]), w) {
					places = append(places, place{a, end})
				}
			}
		}
		if len(places) > 2 && round%3 == 0 {
			places = append(places, places[len(places)/2]) // an earlier place again
		}
		var tags, each tagCursor
		for a := range b { // every place, as the cursor is asked of them
			open, in := each.tagAt(b, a)
			wantOpen, wantIn := (&tagCursor{}).tagAt(b, a)
			if open != wantOpen || in != wantIn {
				t.Fatalf("%q at %d: the cursor says tag at %d (in %t), a fresh look %d (in %t)", b, a, open, in, wantOpen, wantIn)
			}
		}
		for _, p := range places {
			if got, want := markup(b, p.a, p.end, &tags), markup(b, p.a, p.end, &tagCursor{}); got != want {
				t.Fatalf("%q at %d: the cursor says markup=%t, a fresh look %t", b, p.a, got, want)
			}
		}
	}
}

// A value on an element line's tag is markup there and nowhere else.
func TestMarkupOnlyInTheTag(t *testing.T) {
	b := []byte("3[:]<input type=password filled>password</input> a password\n_[:]type=password")
	var tags tagCursor
	var got []bool
	for a := 0; a < len(b); a++ {
		if strings.HasPrefix(string(b[a:]), "password") {
			got = append(got, markup(b, a, a+len("password"), &tags))
		}
	}
	want := []bool{true, false, false, false}
	if len(got) != len(want) {
		t.Fatalf("found %d places, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("place %d: markup=%t, want %t", i, got[i], want[i])
		}
	}
}
