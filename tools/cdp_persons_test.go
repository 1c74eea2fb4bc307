package tools

import (
	"fmt"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/fixtures"
)

// In a browser cdpmcp attached to, the default context is the person's: the
// cdp passthrough does not wipe their cookies or site data, nor crash or
// freeze their tab, and says why; reading and acting on the page pass. A
// browser cdpmcp launched takes the same calls.
func TestCDPLeavesThePersonsBrowserWhole(t *testing.T) {
	t.Parallel()
	port, err := fixtures.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	person, err := fixtures.StartChromium(port, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer person.Kill()
	m := cdpclient.NewManager(cdpclient.Options{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port)})
	defer m.Close()
	s := New(Config{Timeout: callTimeout}, m)
	defer s.Close()
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	for _, method := range []string{"Network.clearBrowserCookies", "Storage.clearDataForOrigin", "Page.crash", "Page.setWebLifecycleState"} {
		r := cdpCall(t, c, "", method, map[string]any{"origin": site.URL(""), "storageTypes": "all", "state": "frozen"})
		wantPermission(t, r, method)
		wantIn(t, r, "in the browser cdpmcp attached to")
	}
	mustOK(t, cdpCall(t, c, "", "Network.getCookies", nil))
	mustOK(t, cdpCall(t, c, "", "Page.reload", nil))

	launched := newClient(t)
	mustOK(t, callTool(t, launched, "navigate", map[string]any{"url": site.URL("/home.html")}))
	mustOK(t, cdpCall(t, launched, "", "Network.clearBrowserCookies", nil))
}
