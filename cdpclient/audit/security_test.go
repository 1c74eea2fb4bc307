package audit

import (
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// The security audit finds exactly the planted problems, and nothing on the
// clean twin (each page in a fresh context: cookies are per context).
func TestAuditSecurityFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		page string
		want []string
	}{
		{"/audit/security-bad.html", []string{
			"console-security " + cdptest.Site.URL("/audit/security-bad.html"),
			"cookie-flags " + cdptest.Site.URL("/audit/security-bad.html"),
			"header-csp " + cdptest.Site.URL("/audit/security-bad.html"),
			"header-frame " + cdptest.Site.URL("/audit/security-bad.html"),
			"header-nosniff " + cdptest.Site.URL("/audit/security-bad.html"),
			"header-permissions " + cdptest.Site.URL("/audit/security-bad.html"),
			"header-referrer " + cdptest.Site.URL("/audit/security-bad.html"),
			"third-party " + cdptest.Site.AltBase,
		}},
		{"/audit/security-good.html", nil},
	}
	for _, tt := range tests {
		p := newTestPage(t)
		ctx := testContext(t)
		if _, err := p.Navigate(ctx, cdptest.Site.URL(tt.page), cdpclient.WaitLoad); err != nil {
			t.Fatal(err)
		}
		rep, err := Security(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", tt.page, err)
		}
		if diff := cmp.Diff(tt.want, rulesAt(rep.Findings)); diff != "" {
			t.Errorf("%s findings (-want +got):\n%s", tt.page, diff)
		}
		if rep.State != "loopback" {
			t.Errorf("%s: state %q, want loopback", tt.page, rep.State)
		}
	}
}

func TestCSPWeaknesses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy string
		want   []string
	}{
		{"default-src 'self'; object-src 'none'; base-uri 'none'", nil},
		{"script-src 'nonce-abc' 'unsafe-inline' 'strict-dynamic'; object-src 'none'; base-uri 'none'", nil},
		{"script-src * 'unsafe-eval'; base-uri 'self'", []string{"script-src allows *", "script-src allows 'unsafe-eval'", "no object-src 'none'"}},
		{"img-src 'self'", []string{"no script-src or default-src: scripts from anywhere run", "no object-src 'none'", "no base-uri"}},
		{"default-src https:; base-uri 'self'", []string{"script-src allows https:", "no object-src 'none'"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, cspWeaknesses(tt.policy)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.policy, diff)
		}
	}
}
