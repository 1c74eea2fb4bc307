package cdpclient

import (
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// A browser whose origin policy allows only 127.0.0.1: every way a page can
// reach localhost (a different site on the same server) must be refused before
// the request leaves the browser. The server's hit counter is the witness.
func TestOriginPolicyHolds(t *testing.T) {
	t.Parallel()
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	b, err := Connect(ctx, Options{Launch: LaunchOptions{Headless: true}, Origins: policy})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	bc, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A navigation straight to the other site.
	fb, err := p.Navigate(ctx, testSite.AltURL("/evil/navigate"), WaitLoad)
	if err != nil {
		t.Fatal(err)
	}
	wantFeedback(t, fb, CodePermission, "not among the allowed origins")

	escape := testSite.URL("/attack/escape.html")
	for _, id := range []string{"link", "popup", "fetch", "post", "redirect", "refresh", "frame", "worker"} {
		if err := outcome(p.Navigate(ctx, escape, WaitLoad)); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		tg := Target{Selector: "#" + id}
		fb, err := p.Click(ctx, tg, ClickOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s → %s", id, fb.JSON())
		// The browser refuses some requests after the answer is given (it
		// decides asynchronously), so the page's network log is checked a
		// moment later; the server's hit counter below is the final witness.
		if !fb.OK && fb.Code != int(CodePermission) {
			t.Errorf("%s: %s", id, fb.JSON())
		}
		if id == "link" || id == "fetch" || id == "post" || id == "redirect" || id == "frame" {
			blocked := false
			for range 40 {
				for _, e := range p.NetworkEntries() {
					if strings.Contains(e.URL, "/evil/") && strings.HasPrefix(e.Failed, feedback.BlockedByClient) {
						blocked = true
					}
				}
				if blocked {
					break
				}
				time.Sleep(25 * time.Millisecond)
			}
			if !blocked {
				t.Errorf("%s: no refused request in the page's network log", id)
			}
		}
	}
	time.Sleep(300 * time.Millisecond) // let stragglers (meta refresh, worker) try
	for _, path := range []string{"/evil/navigate", "/evil/link", "/evil/popup", "/evil/fetch", "/evil/img", "/evil/form", "/evil/redirect", "/evil/refresh", "/evil/frame", "/evil/worker"} {
		if n := testSite.Hits(path); n != 0 {
			t.Errorf("%s reached the server %d times", path, n)
		}
	}
	// The allowed origin still works.
	if err := outcome(p.Navigate(ctx, testSite.URL("/home.html"), WaitLoad)); err != nil {
		t.Errorf("allowed navigation: %v", err)
	}
}
