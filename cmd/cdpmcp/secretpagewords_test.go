package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// An honest user signs in with a short or common password, then reads pages
// of ordinary text it read before: "a remote test server" (mercurial), "BBC
// News, Washington" (bbc-1), "March 18, 2015" (wapo-1) and "help is welcome"
// (v8-blog) read the same after the sign-in as before it (they were masked
// as [secret] wherever the word stood whole), while the sign-in page's echo
// of the password is still masked, and so it is when the same password is
// entered again.
func TestPasswordLeavesPagesReadBeforeAsTheyWere(t *testing.T) {
	t.Parallel()
	s := startStdio(t, "pagewords")
	ctx := testCtx(t, 3*time.Minute)
	if err := s.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) string {
		t.Helper()
		return mustCall(t, ctx, s.c, tool, args)
	}
	signIn := func(pw string) string {
		t.Helper()
		call("navigate", map[string]any{"url": site.URL("/secrets/form?method=post&n=1")})
		call("type", map[string]any{"selector": "#pw0", "text": pw})
		call("click", map[string]any{"selector": "#go"})
		call("waitFor", map[string]any{"text": "Signed in", "timeoutMs": min(testbound.Bound(), time.Minute).Milliseconds()})
		return call("getContent", map[string]any{"format": "text"})
	}
	for _, c := range []struct{ pw, page, word string }{
		{"test", "mercurial", "remote test server"},
		{"news", "bbc-1", "BBC News, Washington"},
		{"2015", "wapo-1", "March 18, 2015"},
		{"welcome", "v8-blog", "help is welcome"},
	} {
		url := site.URL("/corpus/" + c.page + ".html")
		call("navigate", map[string]any{"url": url})
		before := call("getContent", map[string]any{"format": "text"})
		snapBefore := call("snapshot", nil)
		if !strings.Contains(before+snapBefore, c.word) {
			t.Fatalf("%s does not read %q before the sign-in", c.page, c.word)
		}
		for round := range 2 {
			if echo := signIn(c.pw); !strings.Contains(echo, "You said [secret].") {
				t.Errorf("sign-in %d with %q: the page's echo is not masked: %s", round+1, c.pw, echo)
			}
		}
		call("navigate", map[string]any{"url": url})
		if after := call("getContent", map[string]any{"format": "text"}); after != before {
			t.Errorf("password %q: %s reads otherwise after the sign-in:\n%s", c.pw, c.page, firstDiff(before, after))
		}
		// The snapshot itself may differ (new refs, a script's line): it
		// masks no more than before the sign-in (the earlier rounds'
		// passwords, on a page not read before they were entered).
		if snap := call("snapshot", nil); strings.Count(snap, "[secret]") > strings.Count(snapBefore, "[secret]") {
			i := strings.LastIndex(snap, "[secret]")
			t.Errorf("password %q: the snapshot of %s masks the page's words: …%s…", c.pw, c.page, snap[max(0, i-80):min(len(snap), i+40)])
		}
	}
}

// firstDiff shows the first line where got differs from want.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d\nbefore: %s\nafter:  %s", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("%d lines before, %d after", len(w), len(g))
}
