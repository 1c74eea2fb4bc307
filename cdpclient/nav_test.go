package cdpclient

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/page"
)

func TestNavigate(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/home.html")
	if got, want := p.URL(), testSite.URL("/home.html"); got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
	if err := outcome(p.Navigate(ctx, testSite.URL("/second.html"), WaitLoad)); err != nil {
		t.Fatalf("Navigate: %v", err)
	}
	if err := outcome(p.GoBack(ctx, WaitLoad)); err != nil {
		t.Fatalf("GoBack: %v", err)
	}
	if got, want := p.URL(), testSite.URL("/home.html"); got != want {
		t.Errorf("after GoBack URL() = %q, want %q", got, want)
	}
	if err := outcome(p.GoForward(ctx, WaitLoad)); err != nil {
		t.Fatalf("GoForward: %v", err)
	}
	if err := outcome(p.Reload(ctx, false, WaitLoad)); err != nil {
		t.Fatalf("Reload: %v", err)
	}
	if got, want := p.URL(), testSite.URL("/second.html"); got != want {
		t.Errorf("after reload URL() = %q, want %q", got, want)
	}
}

// A click that submits a form answered with a redirect: the answer shows where
// the page went, not the hop on the way (a navigate keeps it: tools tests).
func TestClickThroughRedirect(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/post-redirect.html")
	tg := Target{Ref: refOf(t, modelLines(t, ctx, p), "Sign in")}
	fb := act(t, "click")(p.Click(ctx, tg, ClickOptions{}))
	wantFeedback(t, fb, CodeOK, `"url":"/second.html"`)
	if len(fb.Net) != 0 {
		t.Errorf("the redirect hop is reported: %s", fb.JSON())
	}
	// ~40 o200k tokens: a navigating click stays as short as a plain one.
	if n := len(fb.JSON()); n > 130 {
		t.Errorf("answer is %d bytes: %s", n, fb.JSON())
	}
}

// A tab closed as soon as a navigation in it was sent closes: the headless
// shell drops a close that comes while the tab is between two documents, and
// Close asks again rather than wait for a tab that stays.
func TestCloseRightAfterNavigating(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/home.html"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.c.Page.Navigate(ctx, page.NewNavigateArgs(testSite.URL("/second.html"))); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := p.usable(); err != ErrPageClosed {
		t.Errorf("after Close the page is %v, want ErrPageClosed", err)
	}
}

// A navigation to a new fragment stays in the document, which is watched as
// any action's: what the page's hashchange handler shows is in the feedback.
// One to another URL brings a new document, and the one it leaves is not
// watched (leavesDocument).
func TestNavigateToFragment(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/hash.html")
	fb, err := p.Navigate(ctx, testSite.URL("/hash.html#details"), WaitLoad)
	if err := outcome(fb, err); err != nil {
		t.Fatal(err)
	}
	if fb.Delta == nil || !strings.Contains(fmt.Sprint(fb.Delta.Text, fb.Delta.Added), "Now showing details") {
		t.Errorf("the fragment's section is not in the feedback: %+v", fb.Delta)
	}
	if got, want := p.URL(), testSite.URL("/hash.html#details"); got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
}

func TestLeavesDocument(t *testing.T) {
	for _, tc := range []struct {
		to     string
		leaves bool
	}{
		{"http://127.0.0.1:8080/b.html", true},
		{"http://127.0.0.1:8080/a.html?q=it's", true},
		{"http://127.0.0.1:8080/a.html#x", false},
		{"http://127.0.0.1:8080/a.html#", false},
		{"http://127.0.0.1:8080/x/../a.html?q=é#x", false}, // Go and Chrome write it apart: not sure
		{"HTTPS://example.com/p", true},
		{"data:text/html,<p>hi", true},
		{"about:blank", true},
		{"javascript:document.title='x'", false},
	} {
		u, err := url.Parse(tc.to)
		if err != nil {
			t.Fatal(err)
		}
		if got := leavesDocument(tc.to, u); got != tc.leaves {
			t.Errorf("leavesDocument(%q) = %t, want %t", tc.to, got, tc.leaves)
		}
	}
}

// A javascript: URL runs once in the page, which stays: the answer is ok and
// says what the script changed (the browser answers such a navigation as
// aborted, which is no network failure).
func TestNavigateToScriptURL(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/actions.html")
	fb, err := p.Navigate(ctx, "javascript:count.textContent = +count.textContent + 1; void 0", WaitLoad)
	if err != nil || !fb.OK || fb.Delta == nil || len(fb.Delta.Text) == 0 {
		t.Fatalf("Navigate(javascript:) = %s, %v", fb.JSON(), err)
	}
	if got := evalString(t, ctx, p, "count.textContent + '|' + location.pathname"); got != "1|/actions.html" {
		t.Errorf("count|path = %q, want the script run once and the page kept", got)
	}
}

// A navigation its caller gives up on (a client's cancel) is stopped, as one
// that runs out of time is: the tab does not move behind the caller's back.
func TestCancelledNavigationIsStopped(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/home.html")
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	_, _ = p.Navigate(cctx, testSite.URL("/slow?ms=2000"), WaitLoad)
	time.Sleep(2500 * time.Millisecond) // the server has answered by now
	if got := evalString(t, ctx, p, "location.pathname"); got != "/home.html" {
		t.Errorf("after a cancelled navigation the tab is at %s", got)
	}
}
