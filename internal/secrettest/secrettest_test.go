package secrettest

import (
	"strings"
	"testing"
)

// Search finds what Leaks finds, in one pass.
func TestSearchFindsWhatLeaksFinds(t *testing.T) {
	t.Parallel()
	secrets := Secrets()
	s := NewSearch(secrets)
	for i, secret := range secrets {
		for _, e := range Encodings[i%len(Encodings):] {
			text := "before " + e.Enc(strings.TrimSpace(secret)) + " " + secrets[(i+1)%len(secrets)][:2] + " after"
			want := map[string]bool{}
			for _, name := range Leaks(text, secret) {
				want[name] = true
			}
			got := map[string]bool{}
			for h := range s.Find(text) {
				if h.Secret == secret {
					got[h.Encoding] = true
				}
			}
			if len(got) != len(want) || !got[e.Name] {
				t.Errorf("%q in %s: Search found %v, Leaks %v", secret, e.Name, got, want)
			}
		}
	}
	if got := s.Find(strings.Repeat("nothing to see here ", 100)); len(got) != 0 {
		t.Errorf("found %v in plain text", got)
	}
}

// A short secret inside a random id is chance; the same secret beside one,
// or a longer one inside one, is found.
func TestSearchSkipsChanceInRandomIDs(t *testing.T) {
	t.Parallel()
	s := NewSearch([]string{"abcd", "0123456789abcdef01"})
	upper := Hit{Secret: "abcd", Encoding: "upper case (text-transform)"}
	for _, tc := range []struct {
		text string
		hit  Hit
		want bool
	}{
		{`{"targetId":"D3AFB4BB8FCFA79FF6109A8D306FABCD"}`, upper, false},
		{`{"targetId":"D3AFB4BB8FCF","pw":"ABCD"}`, upper, true},
		{`{"t":"6ABCD1F2"}`, upper, true},
		{`{"id":"D3AFB4BB8FCFA79FF6109A8D306Fabcd"} abcd`, Hit{Secret: "abcd", Encoding: "raw"}, true},
		{`{"id":"ff0123456789abcdef01ff00ff00ff00"}`, Hit{Secret: "0123456789abcdef01", Encoding: "raw"}, true},
	} {
		if _, got := s.Find(tc.text)[tc.hit]; got != tc.want {
			t.Errorf("Find(%s)[%v]: %v, want %v", tc.text, tc.hit, got, tc.want)
		}
	}
}
