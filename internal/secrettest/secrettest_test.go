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
