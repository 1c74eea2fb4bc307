package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/fixtures/watched"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
)

// cdpCall calls the cdp tool; page "" is the current page.
func cdpCall(t *testing.T, c *client.Client, page, method string, params map[string]any) result {
	t.Helper()
	domain, m, _ := strings.Cut(method, ".")
	args := map[string]any{"domain": domain, "method": m}
	if page != "" {
		args["page"] = page
	}
	if params != nil {
		args["params"] = params
	}
	return callTool(t, c, "cdp", args)
}

// wantPermission checks that a cdp call was refused with PERMISSION and a hint.
func wantPermission(t *testing.T, r result, what string) {
	t.Helper()
	if !r.isError || !strings.Contains(r.text, `"code":8`) || !strings.Contains(r.text, `"hint"`) {
		t.Errorf("%s: want PERMISSION with a hint, got %s", what, r.text)
	}
}

// The cdp passthrough cannot switch the origin guard off, load a URL outside
// the rules, open a tab on a refused origin, or hand the page the protocol:
// each such call answers PERMISSION with a hint, and the watched origin on
// 127.0.0.2 sees no connection even after the attempts.
func TestCDPCannotEscapeOrigins(t *testing.T) {
	t.Parallel()
	evil, err := watched.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer evil.Close()
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true}, Origins: policy})
	defer m.Close()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Origins: policy}, m)
	defer s.Close()
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/home.html")}))

	for _, call := range []struct {
		page, method string
		params       map[string]any
	}{
		{"", "Fetch.disable", nil},
		{"browser", "Fetch.enable", map[string]any{"patterns": []any{}}},
		{"", "Network.loadNetworkResource", map[string]any{"url": evil.URL("/load"), "frameId": "x", "options": map[string]any{"disableCache": true, "includeCredentials": false}}},
		{"", "Page.navigate", map[string]any{"url": evil.URL("/navigate")}},
		{"", "Page.navigate", map[string]any{"url": "file:///etc/passwd"}},
		{"browser", "Target.createTarget", map[string]any{"url": evil.URL("/tab")}},
		{"", "Target.createTarget", map[string]any{"url": "chrome://settings"}},
		{"", "Target.setAutoAttach", map[string]any{"autoAttach": false, "waitForDebuggerOnStart": false}},
		{"browser", "Target.setDiscoverTargets", map[string]any{"discover": false}},
		{"browser", "Target.exposeDevToolsProtocol", map[string]any{"targetId": "x"}},
		{"browser", "Target.attachToBrowserTarget", nil},
		{"browser", "Target.createBrowserContext", map[string]any{"proxyServer": "direct://"}},
		{"", "Security.setIgnoreCertificateErrors", map[string]any{"ignore": true}},
		{"", "Page.setBypassCSP", map[string]any{"enabled": true}},
		{"browser", "Extensions.loadUnpacked", map[string]any{"path": "/tmp"}},
		{"browser", "Tethering.bind", map[string]any{"port": 9999}},
	} {
		wantPermission(t, cdpCall(t, c, call.page, call.method, call.params), call.page+" "+call.method)
	}
	// Allowed calls still run, and the guard still holds after the attempts.
	script := "fetch('" + evil.URL("/after") + "', {mode: 'no-cors'}).then(() => 'sent', () => 'failed')"
	if r := cdpCall(t, c, "", "Runtime.evaluate", map[string]any{"expression": script, "awaitPromise": true}); r.isError || !strings.Contains(r.text, "failed") {
		t.Errorf("fetch to the refused origin through Runtime.evaluate: %s", r.text)
	}
	if r := cdpCall(t, c, "browser", "Target.createTarget", map[string]any{"url": site.URL("/second.html")}); r.isError {
		t.Errorf("createTarget on an allowed origin: %s", r.text)
	}
	time.Sleep(300 * time.Millisecond)
	if n := evil.Hits(); n != 0 {
		t.Errorf("the watched origin was reached %d times: %v", n, evil.Log())
	}
}

// Two sessions side by side: through cdp, neither lists, reads, activates,
// closes or targets the other's tabs, nor reads its cookies or contexts; a tab
// one opens through cdp lands in its own context.
func TestCDPSessionsAreConfined(t *testing.T) {
	t.Parallel()
	a, b := newClient(t), newClient(t)
	mustOK(t, callTool(t, a, "navigate", map[string]any{"url": site.URL("/home.html?session=A")}))
	mustOK(t, callTool(t, b, "navigate", map[string]any{"url": site.URL("/second.html?session=B-secret-token")}))
	mustOK(t, callTool(t, b, "evaluate", map[string]any{"expression": "document.cookie = 'who=B'"}))

	bTarget := ownTargetID(t, b)
	aTargets := cdpCall(t, a, "browser", "Target.getTargets", nil)
	if aTargets.isError || strings.Contains(aTargets.text, "B-secret-token") || strings.Contains(aTargets.text, bTarget) || !strings.Contains(aTargets.text, "session=A") {
		t.Errorf("A's Target.getTargets: %s", aTargets.text)
	}
	if r := cdpCall(t, a, "", "Target.getTargets", nil); strings.Contains(r.text, "B-secret-token") {
		t.Errorf("A's page-level Target.getTargets shows B's tab: %s", r.text)
	}
	for _, call := range []struct {
		page, method string
		params       map[string]any
	}{
		{"browser", "Target.getTargetInfo", map[string]any{"targetId": bTarget}},
		{"browser", "Target.closeTarget", map[string]any{"targetId": bTarget}},
		{"browser", "Target.activateTarget", map[string]any{"targetId": bTarget}},
		{"", "Target.closeTarget", map[string]any{"targetId": bTarget}},
		{"browser", "Browser.getWindowForTarget", map[string]any{"targetId": bTarget}},
		{"browser", "Target.attachToTarget", map[string]any{"targetId": bTarget, "flatten": true}},
		{"browser", "Target.sendMessageToTarget", map[string]any{"targetId": bTarget, "message": "{}"}},
		{"browser", "Target.getTargetInfo", map[string]any{"targetId": "0123456789ABCDEF0123456789ABCDEF"}},
		{"browser", "Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": "/tmp"}},
		{"browser", "Target.disposeBrowserContext", map[string]any{"browserContextId": "x"}},
		{"browser", "Tracing.start", nil},
		{"browser", "SystemInfo.getProcessInfo", nil},
	} {
		wantPermission(t, cdpCall(t, a, call.page, call.method, call.params), "A "+call.page+" "+call.method+" on B")
	}
	if r := cdpCall(t, a, "browser", "Storage.getCookies", map[string]any{"browserContextId": "whatever"}); r.isError || strings.Contains(r.text, "who") {
		t.Errorf("A's Storage.getCookies: %s", r.text)
	}
	if r := cdpCall(t, b, "browser", "Storage.getCookies", nil); !strings.Contains(r.text, `"who"`) {
		t.Errorf("B's own Storage.getCookies lacks its cookie: %s", r.text)
	}
	// Page-level storage methods act on the caller's own context.
	mustOK(t, callTool(t, b, "evaluate", map[string]any{"expression": "localStorage.setItem('who', 'B'); 1"}))
	if r := cdpCall(t, a, "", "Network.getAllCookies", nil); r.isError || strings.Contains(r.text, `"who"`) {
		t.Errorf("A's Network.getAllCookies: %s", r.text)
	}
	for _, call := range []struct {
		method string
		params map[string]any
	}{
		{"Network.clearBrowserCookies", nil},
		{"Network.clearBrowserCache", nil},
		{"Storage.clearDataForOrigin", map[string]any{"origin": site.Base, "storageTypes": "all"}},
		{"Storage.clearCookies", nil},
	} {
		if r := cdpCall(t, a, "", call.method, call.params); r.isError {
			t.Errorf("A's %s: %s", call.method, r.text)
		}
	}
	if r := callTool(t, b, "evaluate", map[string]any{"expression": "document.cookie + '|' + localStorage.getItem('who')"}); r.text != `"who=B|B"` {
		t.Errorf("B's storage after A cleared its own: %s", r.text)
	}
	var ctxs struct {
		IDs []string `json:"browserContextIds"`
	}
	if r := cdpCall(t, a, "browser", "Target.getBrowserContexts", nil); json.Unmarshal([]byte(r.text), &ctxs) != nil || len(ctxs.IDs) != 1 {
		t.Errorf("A's Target.getBrowserContexts = %s, want its own only", r.text)
	}
	// A tab opened through cdp, from the browser or from a page, is A's, and
	// B's tab is still open.
	if r := cdpCall(t, a, "", "Target.createTarget", map[string]any{"url": site.URL("/home.html?opened=A-from-page")}); r.isError {
		t.Fatalf("A's page-level createTarget: %s", r.text)
	}
	if r := cdpCall(t, a, "browser", "Target.createTarget", map[string]any{"url": site.URL("/second.html?opened=A"), "browserContextId": "someone-elses"}); r.isError {
		t.Fatalf("A's createTarget: %s", r.text)
	}
	testbound.Until(t, "the tab A opened to be among A's pages", func() bool {
		return strings.Contains(callTool(t, a, "listPages", nil).text, "opened=A")
	})
	testbound.Until(t, "the tab A opened from a page to be among A's pages", func() bool {
		return strings.Contains(callTool(t, a, "listPages", nil).text, "opened=A-from-page")
	})
	if pages := callTool(t, b, "listPages", nil).text; strings.Contains(pages, "opened=A") || !strings.Contains(pages, "B-secret-token") {
		t.Errorf("B's pages after A's calls: %s", pages)
	}
	// A's own target passes.
	if r := cdpCall(t, a, "browser", "Target.getTargetInfo", map[string]any{"targetId": ownTargetID(t, a)}); r.isError {
		t.Errorf("A's getTargetInfo on its own tab: %s", r.text)
	}
}

// ownTargetID is the target id of the session's current page.
func ownTargetID(t *testing.T, c *client.Client) string {
	t.Helper()
	r := cdpCall(t, c, "", "Target.getTargetInfo", nil)
	var info struct {
		TargetInfo struct {
			TargetID string `json:"targetId"`
		} `json:"targetInfo"`
	}
	if err := json.Unmarshal([]byte(r.text), &info); err != nil || info.TargetInfo.TargetID == "" {
		t.Fatalf("Target.getTargetInfo = %s", r.text)
	}
	return info.TargetInfo.TargetID
}
