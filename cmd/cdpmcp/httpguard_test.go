package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

func post(t *testing.T, url string, header map[string]string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Over HTTP: a token is demanded when set, web pages of other origins are
// refused, and an address beyond loopback is refused without a token.
func TestHTTPGuard(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "guard", "--auth-token", "s3cret-token")
	// The start-up line to copy sends the header (without it: 401), never
	// the token itself.
	if log := s.stderr.String(); !strings.Contains(log, `--header \"Authorization: Bearer TOKEN\"`) ||
		!strings.Contains(log, "auth=\"every request needs the header Authorization: Bearer TOKEN") || strings.Contains(log, "s3cret") {
		t.Errorf("the connect line does not say the Authorization header is needed, or shows the token:\n%s", log)
	}
	// A token of 12 characters is warned about, by its tenant's name.
	if log := s.stderr.String(); !regexp.MustCompile(`level=WARN msg="an auth token is short: .*" tenant=local minimum=16`).MatchString(log) {
		t.Errorf("no warning of the short token:\n%s", log)
	}
	if code := post(t, s.url, nil); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	if code := post(t, s.url, map[string]string{"Authorization": "Bearer wrong"}); code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d, want 401", code)
	}
	auth := map[string]string{"Authorization": "Bearer s3cret-token"}
	if code := post(t, s.url, auth); code != http.StatusOK {
		t.Errorf("right token: %d, want 200", code)
	}
	// The scheme's name is case-insensitive (RFC 7235); the token is not.
	if code := post(t, s.url, map[string]string{"Authorization": "bearer s3cret-token"}); code != http.StatusOK {
		t.Errorf("right token, scheme in lower case: %d, want 200", code)
	}
	if code := post(t, s.url, map[string]string{"Authorization": "Bearer S3CRET-TOKEN"}); code != http.StatusUnauthorized {
		t.Errorf("token in other case: %d, want 401", code)
	}
	auth["Origin"] = "https://evil.example"
	if code := post(t, s.url, auth); code != http.StatusForbidden {
		t.Errorf("foreign Origin: %d, want 403", code)
	}
	auth["Origin"] = "http://localhost:3000"
	if code := post(t, s.url, auth); code != http.StatusOK {
		t.Errorf("loopback Origin: %d, want 200", code)
	}
	// A real client with the token works end to end.
	ctx := testCtx(t, 30*time.Second)
	c, err := client.NewStreamableHttpClient(s.url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer s3cret-token"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	if got := mustCall(t, ctx, c, "waitForTimeout", map[string]any{"ms": 1}); got != "waited 1 ms" {
		t.Errorf("call with token: %q", got)
	}
}

func TestSecurityFlagsRefused(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "0.0.0.0:0"}, "--auth-token"},
		{[]string{"serve", "--browser-arg=--disable-web-security"}, "--allow-unsafe-browser-args"},
		{[]string{"serve", "--browser-arg=--remote-debugging-address=0.0.0.0"}, "--allow-unsafe-browser-args"},
		{[]string{"serve", "--browser-arg=-disable-web-security"}, "--allow-unsafe-browser-args"},
		{[]string{"serve", "--browser-arg=--Disable-Features=IsolateOrigins"}, "--allow-unsafe-browser-args"},
		{[]string{"serve", "--browser-arg=http://evil.example/"}, "not a flag"},
		{[]string{"serve", "--allowed-origins", "https://example.com", "--browser-arg=--no-proxy-server"}, "routes every connection"},
		{[]string{"serve", "--allowed-origins", "example.com"}, "no scheme"},
		{[]string{"serve", "--blocked-origins", "https://a*b.com"}, "wildcard"},
	}
	for _, tc := range cases {
		r := runCLI(t, tmp, tc.args...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want a refusal naming %s", tc.args, r.code, r.stderr, tc.want)
		}
	}
	// A remote CDP endpoint is refused when a tool first needs the browser.
	r := runCLI(t, tmp, "call", "--cdp-endpoint", "http://192.0.2.10:9222", "getUrl")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "--allow-remote-cdp") {
		t.Errorf("remote endpoint: exit %d, out %q %q", r.code, r.stdout, r.stderr)
	}
}
