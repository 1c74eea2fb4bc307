package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

// The page, or one element, in each format; a selector that is not CSS and a
// format that is not one are the caller's mistakes, a selector that matches
// nothing is NOT_FOUND.
func TestGet(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/home.html")
	for _, tt := range []struct{ selector, format, want string }{
		{"", "", "<!DOCTYPE html>"},
		{"", "html", `<p id="msg">Hello from fixtures.</p>`},
		{"", "markdown", "[Second page]("},
		{"#msg", "text", "Hello from fixtures."},
		{"#msg", "html", `<p id="msg">Hello from fixtures.</p>`},
	} {
		got, err := Get(ctx, p, tt.selector, tt.format)
		if err != nil || !strings.Contains(got, tt.want) {
			t.Errorf("Get(%q, %q) = %q, %v; want it to hold %q", tt.selector, tt.format, got, err, tt.want)
		}
	}
	var ae *cdpclient.ArgError
	for _, bad := range [][2]string{{"#msg[", "text"}, {"", "pdf"}} {
		if _, err := Get(ctx, p, bad[0], bad[1]); !errors.As(err, &ae) {
			t.Errorf("Get(%q, %q): %v, want an argument error", bad[0], bad[1], err)
		}
	}
	var e *cdpclient.Error
	if _, err := Get(ctx, p, "#nothing", "text"); !errors.As(err, &e) || e.Code != cdpclient.CodeNotFound || e.Hint == "" {
		t.Errorf("a selector that matches nothing: %v", err)
	}
}
