package network

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Routes answer requests by URL pattern: a made-up response, a network
// error, headers changed on the way; the server sees only what goes on.
//
// Not parallel: it counts the fixture server's hits on /parity/data.json,
// which TestRequestDetails loads too.
func TestRoutes(t *testing.T) {
	ctx := testbound.Context(t)
	p := cdptest.NewPage(t)
	bc := p.Context()
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/api.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	clickShows(t, ctx, p, "#load", "200 real")

	hits := cdptest.Site.Hits("/parity/data.json")
	if err := AddRoute(ctx, bc, Route{Pattern: "*/parity/data.json", Action: "fulfill", ContentType: "application/json", Body: `{"items":["mocked"]}`}); err != nil {
		t.Fatal(err)
	}
	clickShows(t, ctx, p, "#load", "200 mocked")
	if err := AddRoute(ctx, bc, Route{Pattern: "*/parity/data.json", Action: "abort"}); err != nil {
		t.Fatal(err)
	}
	clickShows(t, ctx, p, "#load", "failed: Failed to fetch")
	if cdptest.Site.Hits("/parity/data.json") != hits {
		t.Errorf("a routed request reached the server")
	}
	if err := AddRoute(ctx, bc, Route{Pattern: "*/headers", Action: "modify", Headers: map[string]string{"X-Added": "yes"}, RemoveHeaders: []string{"x-page"}}); err != nil {
		t.Fatal(err)
	}
	clickShows(t, ctx, p, "#headers", "X-Added: yes")
	if got := cdptest.Text(t, ctx, p, "#out"); strings.Contains(got, "X-Page") {
		t.Errorf("a removed header arrived: %q", got)
	}
	routes := Routes(bc)
	if len(routes) != 2 || routes[0].Action != "abort" || routes[0].Hits != 1 || routes[1].Hits != 1 {
		t.Errorf("routes: %+v", routes)
	}
	if n, err := RemoveRoute(ctx, bc, ""); err != nil || n != 2 {
		t.Fatalf("remove all: %d %v", n, err)
	}
	clickShows(t, ctx, p, "#load", "200 real")
	if err := AddRoute(ctx, bc, Route{Pattern: "*", Action: "teleport"}); err == nil {
		t.Error("an unknown route action was taken")
	}
}
