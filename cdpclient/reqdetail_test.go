package cdpclient

import (
	"strings"
	"testing"
	"time"
)

// A page's request in detail: headers both ways, status, timing, bodies
// (routes are cdpclient/network's TestRoutes).
func TestRequestDetails(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/parity/api.html"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	click := func(sel, want string) {
		t.Helper()
		if err := outcome(p.Click(ctx, Target{Selector: sel}, ClickOptions{})); err != nil {
			t.Fatal(err)
		}
		var got string
		if err := poll(ctx, 20*time.Millisecond, func() (bool, error) {
			got = pageText(t, ctx, p, "#out")
			return strings.Contains(got, want), nil
		}); err != nil {
			t.Errorf("after %s the page shows %q, want %q", sel, got, want)
		}
	}
	click("#load", "200 real")
	d, err := p.Request(ctx, "data.json", true)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != 200 || d.MIME != "application/json" || !strings.Contains(d.Body, `"real"`) || d.Method != "GET" ||
		!strings.Contains(strings.Join(SortedHeaders(d.ResponseHeaders), "\n"), "Content-Type: application/json") || d.Timing == nil {
		t.Errorf("request details: %+v", d)
	}
	click("#post", "200 posted")
	if d, err := p.Request(ctx, "/parity/echo", true); err != nil || d.RequestBody != "q=hello+world" || !strings.Contains(d.Body, "q=hello world") {
		t.Errorf("post details: %+v %v", d, err)
	}

}
