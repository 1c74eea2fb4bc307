package secrets

import (
	"strings"
	"testing"
)

// A short password entered after a page was read leaves that page's words
// as they were, in a snapshot's lines too (whose refs change from one to
// the next); an echo in other words is masked, and an echo given out after
// the value was entered stays masked when it is entered again.
func TestEnteredAfterReadingLeavesPageWords(t *testing.T) {
	t.Parallel()
	page := "page p1 \"Obama - BBC News\"\n12[:]## News navigation\n_[:]Analysis: Jon Sopel, BBC News, Washington\n"
	again := "page p1 \"Obama - BBC News\"\n98[:]## News navigation\n_[:]Analysis: Jon Sopel, BBC News, Washington\n"
	echo := "You said news.\n<input value=\"news\">"
	r := New()
	r.Saw(page)
	r.Enter("news", Entry{Typed: true})
	if got := r.Redact(again); got != again {
		t.Errorf("the page read before the value was entered reads\n%s\nwant\n%s", got, again)
	}
	got := r.Redact(echo)
	if strings.Contains(got, "news") {
		t.Errorf("the echo reads %q", got)
	}
	r.Saw(got)
	r.Enter("news", Entry{Typed: true})
	if got := r.Redact(echo); strings.Contains(got, "news") {
		t.Errorf("entered again, the echo reads %q", got)
	}
	// A page read after the value was entered is not one read before it.
	r2 := New()
	r2.Enter("news", Entry{Typed: true})
	r2.Saw(r2.Redact(page))
	if got := r2.Redact(page); !strings.Contains(got, Mask) {
		t.Errorf("a page first read after the value was entered reads %q", got)
	}
	// Values not entered into a page (--secret-env, a page's own password
	// field) are masked wherever they show.
	r3 := New()
	r3.Saw(page)
	r3.Add("news")
	if got := r3.Redact(page); !strings.Contains(got, Mask) {
		t.Errorf("an added value stays in %q", got)
	}
}

// A value entered again and again after the same pages were read keeps the
// lines of them once.
func TestEnteredAgainKeepsOldLinesOnce(t *testing.T) {
	t.Parallel()
	r := New()
	r.Saw("_[:]Analysis: Jon Sopel, BBC News, Washington\n")
	for range 50 {
		r.Enter("news", Entry{Typed: true, Old: []string{"Sign in to read the news"}})
	}
	if n := len(r.values["news"].old); n != 2 {
		t.Errorf("entered 50 times, the value keeps %d old lines, want 2", n)
	}
	if got := r.Redact("BBC News, Washington"); got != "BBC News, Washington" {
		t.Errorf("the page's words read %q", got)
	}
}
