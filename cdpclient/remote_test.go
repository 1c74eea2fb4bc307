package cdpclient

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A browser service behind a token (a stand-in for Browserless): with the
// right header cdpmcp drives the browser it hands out, and disconnecting
// ends it; a wrong or missing header is a clear, permanent set-up error
// naming --cdp-header, which never shows the header's value or a token in
// the URL.
func TestBrowserServiceHeader(t *testing.T) {
	t.Parallel()
	pool, err := fixtures.StartPool("Authorization", "Bearer svc-token-9876", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	ctx := testContext(t)
	b, err := Connect(ctx, Options{Endpoint: pool.URL, Header: http.Header{"Authorization": {"Bearer svc-token-9876"}}})
	if err != nil {
		t.Fatalf("connect with the right header: %v", err)
	}
	p, err := b.Default().NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := outcome(p.Navigate(ctx, testSite.URL("/second.html"), WaitLoad)); err != nil {
		t.Fatalf("navigate in the service's browser: %v", err)
	}
	if title := p.DocumentTitle(ctx); title != "Second page" || b.Launched() {
		t.Errorf("title %q, launched %v", title, b.Launched())
	}
	b.Close()
	testbound.Until(t, "the service to end the browser with the connection", func() bool { return pool.Open() == 0 })

	for _, tc := range []struct {
		header http.Header
		hint   string
	}{
		{http.Header{"Authorization": {"Bearer wrong-token-1111"}}, "did not take the --cdp-header values"},
		{nil, "--cdp-header 'Authorization: Bearer TOKEN'"},
	} {
		_, err := Connect(ctx, Options{Endpoint: pool.URL + "?token=url-token-2222", Header: tc.header})
		var se *browserproc.SetupError
		if !errors.As(err, &se) || !se.Permanent || !strings.Contains(se.Msg, "refused the connection: 401") || !strings.Contains(se.Hint, tc.hint) {
			t.Errorf("header %v: %v (%+v)", tc.header, err, se)
			continue
		}
		if c := Classify(err); c.Code != CodeBrowserUnavailable || strings.Contains(c.Msg+c.Hint, "1111") || strings.Contains(c.Msg+c.Hint, "2222") {
			t.Errorf("header %v: classified %v %q (hint %q)", tc.header, c.Code, c.Msg, c.Hint)
		}
	}
	if pool.Refused() != 2 || pool.Accepted() != 1 {
		t.Errorf("the service refused %d and took %d connections", pool.Refused(), pool.Accepted())
	}
}
