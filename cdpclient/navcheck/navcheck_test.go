package navcheck

import (
	"errors"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// A URL a tab cannot open is an argument error; one the rules refuse is
// PERMISSION; what is left opens.
func TestNavigation(t *testing.T) {
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"example.com", "http://", "http://127.0.0.1/a\nb", "https:/x"} {
		var ae *failure.ArgError
		if err := Navigation(policy, raw, false); !errors.As(err, &ae) {
			t.Errorf("%q: %v, want an argument error", raw, err)
		}
	}
	for _, c := range []struct {
		raw      string
		readOnly bool
	}{{"https://example.com/", false}, {"file:///etc/passwd", false}, {"data:text/html,x", true}} {
		var fe *failure.Error
		if err := Navigation(policy, c.raw, c.readOnly); !errors.As(err, &fe) || fe.Code != failure.CodePermission {
			t.Errorf("%q (read-only %v): %v, want PERMISSION", c.raw, c.readOnly, err)
		}
	}
	if err := Navigation(policy, " http://127.0.0.1:8080/x ", true); err != nil {
		t.Errorf("an allowed page: %v", err)
	}
}
