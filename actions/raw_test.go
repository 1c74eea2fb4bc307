package actions

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// The cdp tool takes the method with its domain or the two apart; a domain
// the method's prefix contradicts, or none at all, is refused with a hint.
func TestCDPMethodName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		domain, method, want, err, hint string
	}{
		{"", "Browser.getVersion", "Browser.getVersion", "", ""},
		{"Browser", "getVersion", "Browser.getVersion", "", ""},
		{"Browser", "Browser.getVersion", "Browser.getVersion", "", ""},
		{"page", "Page.reload", "Page.reload", "", ""},
		{"DOM", "Page.reload", "", `method "Page.reload" is not in domain "DOM"`, `{"method":"Page.reload"}, or {"domain":"DOM","method":"reload"}`},
		{"", "getVersion", "", `method "getVersion" names no domain`, `{"method":"Browser.getVersion"}`},
		{"", "getLayoutMetrics", "", `method "getLayoutMetrics" names no domain`, `{"method":"Page.getLayoutMetrics"}`},
		{"", "frobnicate", "", `method "frobnicate" names no domain`, `{"method":"Page.frobnicate"}`},
		{"Page", "", "", `argument "method" is required`, `{"method":"Page.getLayoutMetrics"}`},
	} {
		got, err := cdpMethod(c.domain, c.method)
		var ae *cdpclient.ArgError
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("cdpMethod(%q, %q) = %q, %v; want %q", c.domain, c.method, got, err, c.want)
		case c.err != "" && (!errors.As(err, &ae) || !strings.Contains(ae.Msg, c.err) || !strings.Contains(ae.Hint, c.hint)):
			t.Errorf("cdpMethod(%q, %q) = %q, %#v; want %q with a hint holding %q", c.domain, c.method, got, err, c.err, c.hint)
		}
	}
}
