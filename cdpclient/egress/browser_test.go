package egress

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// A browser gets a proxy with origin rules, or when one of cdpmcp's listeners
// is reachable beyond loopback (its port then refused at every address);
// otherwise none, and a nil proxy adds no flags, no context proxy and
// nothing to close.
func TestForBrowser(t *testing.T) {
	none, err := ForBrowser(nil, []string{"127.0.0.1:8080", "localhost:9"})
	if err != nil || none != nil {
		t.Fatalf("no rules, loopback listeners: %v, %v; want no proxy", none, err)
	}
	if f := none.LaunchFlags(); f != nil {
		t.Errorf("flags without a proxy: %q", f)
	}
	if s, b := none.ContextProxy(); s != "" || b != "" {
		t.Errorf("context proxy without a proxy: %q %q", s, b)
	}
	none.ReserveEndpoint("ws://127.0.0.1:9222/devtools/browser/x")
	if none.Refused() != 0 || none.Close() != nil {
		t.Error("a nil proxy refused something or failed to close")
	}

	exposed, err := ForBrowser(nil, []string{"0.0.0.0:8765"})
	if err != nil || exposed == nil {
		t.Fatalf("an exposed listener: %v, %v; want a proxy", exposed, err)
	}
	defer exposed.Close()
	if !exposed.isReserved("127.0.0.1", "8765") {
		t.Error("the exposed listener's port is not reserved")
	}

	policy, err := origins.NewList([]string{"https://example.com"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ForBrowser(policy, nil)
	if err != nil || p == nil {
		t.Fatalf("origin rules: %v, %v; want a proxy", p, err)
	}
	defer p.Close()
	flags := strings.Join(p.LaunchFlags(), " ")
	for _, want := range []string{"--proxy-server=" + p.URL(), "--proxy-bypass-list=<-loopback>", "disable_non_proxied_udp", "--host-resolver-rules=MAP * ~NOTFOUND"} {
		if !strings.Contains(flags, want) {
			t.Errorf("launch flags %q lack %q", flags, want)
		}
	}
	if s, b := p.ContextProxy(); s != p.URL() || b != "<-loopback>" {
		t.Errorf("context proxy = %q %q", s, b)
	}
	p.ReserveEndpoint("ws://127.0.0.1:9333/devtools/browser/x")
	if !p.isReserved("localhost", "9333") {
		t.Error("the DevTools endpoint's port is not reserved")
	}
}
