package pagelog

import (
	"fmt"
	"testing"
)

// The log says why the origin rules refused a URL, and the latest reason;
// past its bound it starts over rather than grow.
func TestRefusals(t *testing.T) {
	l := New()
	if why := l.LastRefusal(); why != "" {
		t.Errorf("latest refusal of a new log: %q", why)
	}
	if _, ok := l.Refusal("http://evil.test/"); ok {
		t.Error("a refusal that never was")
	}
	l.Refuse("http://evil.test/", "origin http://evil.test is not allowed")
	l.Refuse("http://other.test/x.js", "origin http://other.test is not allowed")
	if why, ok := l.Refusal("http://evil.test/"); !ok || why != "origin http://evil.test is not allowed" {
		t.Errorf("refusal = %q, %v", why, ok)
	}
	if why := l.LastRefusal(); why != "origin http://other.test is not allowed" {
		t.Errorf("latest refusal = %q", why)
	}
	for i := range 2 * maxRefusals {
		l.Refuse(fmt.Sprintf("http://evil.test/%d", i), "no")
	}
	if n := len(l.refused); n > maxRefusals+1 {
		t.Errorf("%d refusals kept, want at most %d", n, maxRefusals+1)
	}
	if _, ok := l.Refusal(fmt.Sprintf("http://evil.test/%d", 2*maxRefusals-1)); !ok {
		t.Error("the newest refusal was not kept")
	}
}
