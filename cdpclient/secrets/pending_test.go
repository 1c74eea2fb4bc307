package secrets

import "testing"

// A value being typed is redacted from its fourth character on; each key
// replaces the prefix before it, so only what was kept stays remembered.
func TestPendingAndKeep(t *testing.T) {
	r := New()
	steps := []struct {
		do        func()
		text      string
		want      string
		remembers int
	}{
		{func() { r.Pending("a", "hun") }, "q=hun", "q=hun", 0},
		{func() { r.Pending("a", "hunt") }, "q=hunt", "q=" + Mask, 1},
		{func() { r.Pending("a", "hunter2") }, "q=hunt q=hunter2", "q=hunt q=" + Mask, 1},
		{func() { r.Pending("b", "other!") }, "hunter2 other!", Mask + " " + Mask, 2},
		{func() { r.Keep("a") }, "hunter2", Mask, 2},
		{func() { r.Pending("a", "") }, "hunter2", Mask, 2},
		{func() { r.Pending("b", "") }, "other! hunter2", "other! " + Mask, 1},
		{func() { r.Keep("b") }, "other!", "other!", 1},
	}
	for i, s := range steps {
		s.do()
		if got := r.Redact(s.text); got != s.want || r.Len() != s.remembers {
			t.Errorf("step %d: Redact(%q) = %q, Len %d; want %q, %d", i, s.text, got, r.Len(), s.want, s.remembers)
		}
	}
	var nilReg *Registry
	nilReg.Pending("a", "secret")
	nilReg.Keep("a")
}

// A value's spaces do not count towards its length: a start typed key by key
// whose letters are fewer than MinLen ("  two" of "  two  spaces  ") masks
// nothing, where it would mask those letters in every word ("network").
func TestShortOnceSpacesAreFolded(t *testing.T) {
	r := New()
	for _, v := range []string{"  t", "  tw", "  two", "  two ", "  two  "} {
		r.Typing("a", v)
		if got := r.Redact("tool=network, a twin, two Two"); got != "tool=network, a twin, two Two" {
			t.Errorf("typing %q: %q", v, got)
		}
	}
	r.Typing("a", "  two  spaces  ")
	r.Keep("a")
	r.Enter("  ab  ", Entry{})
	r.Add("+ab+")
	if got, want := r.Redact("network about  two  spaces  "), "network about  "+Mask+"  "; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
}
