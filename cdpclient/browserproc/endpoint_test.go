package browserproc

import (
	"errors"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

func TestResolveEndpointRefusesRemote(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	for _, ep := range []string{"http://192.0.2.1:9222", "ws://example.com:9222/devtools/browser/x", "http://[2001:db8::1]:9222"} {
		if _, err := ResolveEndpoint(ctx, ep, false, nil); !errors.Is(err, ErrRemoteEndpoint) {
			t.Errorf("ResolveEndpoint(%q) = %v, want ErrRemoteEndpoint", ep, err)
		}
	}
	for _, ep := range []string{"", "9222", "ftp://127.0.0.1:9222"} {
		if _, err := ResolveEndpoint(ctx, ep, false, nil); err == nil {
			t.Errorf("ResolveEndpoint(%q) accepted", ep)
		}
	}
	if got, err := ResolveEndpoint(ctx, "ws://127.0.0.1:9/devtools/browser/abc/", false, nil); err != nil || got != "ws://127.0.0.1:9/devtools/browser/abc" {
		t.Errorf("ws endpoint = %q, %v", got, err)
	}
}
