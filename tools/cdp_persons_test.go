package tools

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/fixtures"
)

// In a browser cdpmcp attached to, the default context is the person's: the
// cdp passthrough does not wipe their cookies or site data, nor crash or
// freeze their tab, and says why; reading and acting on the page pass; a
// navigation away from their unsaved work waits at its "leave site?" prompt
// for handleDialog, and is dismissed (the page stays) if left open when
// cdpmcp lets go. A browser cdpmcp launched takes the same calls.
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

	// A navigation away from the person's unsaved work stops at the page's
	// "leave site?" prompt, theirs to answer: nothing is discarded unasked.
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/leave.html")}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#draft"}))
	r := callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/keys.html")})
	wantIn(t, r, `"type":"beforeunload"`, "nothing is discarded", "handleDialog accept:true leaves")
	if strings.Contains(r.text, `"closed"`) || strings.Contains(r.text, `"title":"Keys"`) {
		t.Errorf("the person's prompt was answered for them: %s", r.text)
	}
	wantIn(t, callTool(t, c, "handleDialog", map[string]any{"accept": true}), `"title":"Keys"`)

	// A prompt left open when cdpmcp lets go is dismissed: the page stays,
	// and the tab answers whoever comes next.
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/leave.html")}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#draft"}))
	wantIn(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/keys.html")}), `"type":"beforeunload"`)
	s.Close()
	next := cdpclient.NewManager(cdpclient.Options{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port)})
	defer next.Close()
	s2 := New(Config{Timeout: callTimeout}, next)
	defer s2.Close()
	if u := callTool(t, newClient(t, s2), "getUrl", nil); !strings.HasSuffix(u.text, "/behave/leave.html") {
		t.Errorf("the next session finds the tab %s", u.text)
	}

	launched := newClient(t)
	mustOK(t, callTool(t, launched, "navigate", map[string]any{"url": site.URL("/home.html")}))
	mustOK(t, cdpCall(t, launched, "", "Network.clearBrowserCookies", nil))
}

// A password a page's field holds that cdpmcp never typed (the person typed
// it into their own browser, the browser filled it in) is redacted from
// what code run in the page gives back, evaluate's and cdp's, as a typed one
// is.
func TestPasswordsAPageHoldsAreRedacted(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/prefilled.html")}))
	r := callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#pin').value + ' ' + document.querySelector('#user').value"})
	mustOK(t, r)
	if r.text != `"[secret] ada"` {
		t.Errorf("evaluate of the field = %s", r.text)
	}
	r = cdpCall(t, c, "", "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": []string{}})
	mustOK(t, r)
	if strings.Contains(r.text, "55667788") {
		t.Errorf("the DOM snapshot holds the password: %s", r.text[:min(len(r.text), 400)])
	}
}

// A tab a script sent to an origin the rules refuse holds the browser's
// error page for that address: getUrl and listPages say so, not as if the
// page were there.
func TestBlockedAddressSaysSo(t *testing.T) {
	t.Parallel()
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true}, Origins: policy})
	defer m.Close()
	s := New(Config{Timeout: callTimeout, Origins: policy}, m)
	defer s.Close()
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))
	blocked := strings.Replace(site.URL("/second.html"), "127.0.0.1", "localhost", 1)
	callTool(t, c, "evaluate", map[string]any{"expression": "location.href = " + strconv.Quote(blocked)})
	waitUntil(t, "the tab to reach the blocked address", func() bool {
		return strings.HasPrefix(callTool(t, c, "getUrl", nil).text, blocked)
	})
	wantIn(t, callTool(t, c, "getUrl", nil), "blocked by the origin rules")
	wantIn(t, callTool(t, c, "listPages", nil), "(blocked)", "the browser's error page")
}
