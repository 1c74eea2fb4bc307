package cdpclient

import (
	"strings"
	"testing"
	"time"
)

// A page's request in detail (headers both ways, status, timing, bodies), and
// routes that answer requests by URL pattern: a made-up response, a network
// error, headers changed on the way; the server sees only what goes on.
func TestRequestDetailsAndRoutes(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	bc := p.Context()
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

	hits := testSite.Hits("/parity/data.json")
	if err := bc.AddRoute(ctx, Route{Pattern: "*/parity/data.json", Action: "fulfill", ContentType: "application/json", Body: `{"items":["mocked"]}`}); err != nil {
		t.Fatal(err)
	}
	click("#load", "200 mocked")
	if err := bc.AddRoute(ctx, Route{Pattern: "*/parity/data.json", Action: "abort"}); err != nil {
		t.Fatal(err)
	}
	click("#load", "failed: Failed to fetch")
	if testSite.Hits("/parity/data.json") != hits {
		t.Errorf("a routed request reached the server")
	}
	if err := bc.AddRoute(ctx, Route{Pattern: "*/headers", Action: "modify", Headers: map[string]string{"X-Added": "yes"}, RemoveHeaders: []string{"x-page"}}); err != nil {
		t.Fatal(err)
	}
	click("#headers", "X-Added: yes")
	if got := pageText(t, ctx, p, "#out"); strings.Contains(got, "X-Page") {
		t.Errorf("a removed header arrived: %q", got)
	}
	routes := bc.Routes()
	if len(routes) != 2 || routes[0].Action != "abort" || routes[0].Hits != 1 || routes[1].Hits != 1 {
		t.Errorf("routes: %+v", routes)
	}
	if n, err := bc.RemoveRoute(ctx, ""); err != nil || n != 2 {
		t.Fatalf("remove all: %d %v", n, err)
	}
	click("#load", "200 real")
	if err := bc.AddRoute(ctx, Route{Pattern: "*", Action: "teleport"}); err == nil {
		t.Error("an unknown route action was taken")
	}
}
