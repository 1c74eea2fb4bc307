package network

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

// A page's request in detail: headers both ways, status, timing, bodies
// (recorded from the page's first event, before anyone asked).
func TestRequestDetails(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/parity/api.html")
	clickShows(t, ctx, p, "#load", "200 real")
	d, err := Request(ctx, p, "data.json", true)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != 200 || d.MIME != "application/json" || !strings.Contains(d.Body, `"real"`) || d.Method != "GET" ||
		!strings.Contains(strings.Join(SortedHeaders(d.ResponseHeaders), "\n"), "Content-Type: application/json") || d.Timing == nil {
		t.Errorf("request details: %+v", d)
	}
	clickShows(t, ctx, p, "#post", "200 posted")
	if d, err := Request(ctx, p, "/parity/echo", true); err != nil || d.RequestBody != "q=hello+world" || !strings.Contains(d.Body, "q=hello world") {
		t.Errorf("post details: %+v %v", d, err)
	}
	var e *cdpclient.Error
	if _, err := Request(ctx, p, "never-requested", false); !errors.As(err, &e) || e.Code != cdpclient.CodeNotFound {
		t.Errorf("a request never made: %v, want NOT_FOUND", err)
	}
}
