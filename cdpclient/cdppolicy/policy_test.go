package cdppolicy

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The methods an attacker (a hostile page steering a model, a confused model,
// another client) would reach for are refused in every mode; scoped ones pass
// only with their scope; read-only mode passes reading methods only.
func TestCheck(t *testing.T) {
	const (
		refused = "refused"
		free    = "free"
	)
	tests := []struct {
		method   string
		level    Level
		readOnly bool
		params   string
		want     string // refused, free, or the scope's name
		why      string // part of the refusal's reason
	}{
		// Switching the origin guard off or going around it.
		{method: "Fetch.disable", want: refused, why: "origin guard"},
		{method: "Fetch.enable", level: Browser, want: refused},
		{method: "Fetch.continueRequest", want: refused},
		{method: "Network.loadNetworkResource", want: refused, why: "loads a URL"},
		{method: "Target.setAutoAttach", want: refused, why: "auto-attach"},
		{method: "Target.setDiscoverTargets", level: Browser, want: refused},
		{method: "Target.detachFromTarget", level: Browser, want: refused},
		{method: "Network.disable", want: refused},
		{method: "Security.setIgnoreCertificateErrors", want: refused, why: "certificate"},
		{method: "Page.setBypassCSP", want: refused},
		// Reaching other sessions or the whole browser.
		{method: "Target.attachToTarget", level: Browser, want: refused},
		{method: "Target.attachToBrowserTarget", want: refused},
		{method: "Target.exposeDevToolsProtocol", level: Browser, want: refused, why: "DevTools protocol"},
		{method: "Target.sendMessageToTarget", level: Browser, want: refused},
		{method: "Target.createBrowserContext", level: Browser, want: refused},
		{method: "Target.disposeBrowserContext", level: Browser, want: refused},
		{method: "Browser.setDownloadBehavior", level: Browser, want: refused, why: "downloads"},
		{method: "Page.setDownloadBehavior", want: refused},
		{method: "Browser.close", level: Browser, want: refused},
		{method: "Tracing.start", level: Browser, want: refused, why: "every session"},
		{method: "Extensions.loadUnpacked", level: Browser, want: refused, why: "extensions"},
		{method: "Tethering.bind", level: Browser, want: refused, why: "ports"},
		{method: "PWA.install", level: Browser, want: refused},
		{method: "Cast.startTabMirroring", want: refused},
		{method: "SystemInfo.getProcessInfo", level: Browser, want: refused},
		{method: "Storage.clearDataForOrigin", level: Browser, want: refused, why: "browser level"},
		{method: "Runtime.evaluate", level: Browser, want: refused, why: "browser level"},
		{method: "Nonsense.method", want: refused, why: "not a domain"},
		{method: "DOM.", want: refused},
		// Scoped: pass, with what the caller must do.
		{method: "Target.getTargets", level: Browser, want: "FilterTargets"},
		{method: "Target.getTargets", level: Browser, readOnly: true, want: "FilterTargets"},
		{method: "Target.getBrowserContexts", level: Browser, want: "FilterContexts"},
		{method: "Target.createTarget", level: Browser, want: "NewTarget"},
		{method: "Target.createTarget", want: "NewTarget"},
		{method: "Target.createTarget", level: Browser, readOnly: true, want: refused},
		{method: "Target.closeTarget", level: Browser, want: "OwnTarget"},
		{method: "Target.activateTarget", want: "OwnTarget"},
		{method: "Browser.getWindowForTarget", level: Browser, readOnly: true, want: "OwnTarget"},
		{method: "Browser.grantPermissions", level: Browser, want: "OwnContext"},
		{method: "Browser.grantPermissions", level: Browser, params: `{"permissions":["geolocation","videoCapture"]}`, want: refused, why: "--grant-permissions"},
		{method: "Browser.grantPermissions", level: Browser, params: `{"permissions":["localNetworkAccess"]}`, want: refused, why: "never"},
		{method: "Browser.setPermission", level: Browser, params: `{"permission":{"name":"microphone"},"setting":"granted"}`, want: refused},
		{method: "Browser.setPermission", level: Browser, params: `{"permission":{"name":"geolocation"},"setting":"granted"}`, want: "OwnContext"},
		{method: "WebMCP.invokeTool", want: free},
		{method: "WebMCP.disable", want: refused, why: "pageTools"},
		{method: "Storage.getCookies", level: Browser, readOnly: true, want: "OwnContext"},
		{method: "Storage.setCookies", level: Browser, readOnly: true, want: refused},
		{method: "Page.navigate", want: "CheckURL"},
		{method: "Page.navigate", readOnly: true, want: refused},
		{method: "Page.navigate", level: Browser, want: refused},
		// Normal mode: page methods pass.
		{method: "Runtime.evaluate", want: free},
		{method: "Input.dispatchMouseEvent", want: free},
		{method: "DOM.setFileInputFiles", want: free},
		{method: "Emulation.setDeviceMetricsOverride", want: free},
		{method: "Page.getLayoutMetrics", want: free},
		{method: "Browser.getVersion", level: Browser, want: free},
		// Read-only: reading methods only.
		{method: "Page.getLayoutMetrics", readOnly: true, want: free},
		{method: "DOM.getDocument", readOnly: true, want: free},
		{method: "DOMSnapshot.captureSnapshot", readOnly: true, want: free},
		{method: "Accessibility.getFullAXTree", readOnly: true, want: free},
		{method: "Page.captureScreenshot", readOnly: true, want: free},
		{method: "Page.captureScreenshot", readOnly: true, params: `{"captureBeyondViewport":true}`, want: refused, why: "resizes"},
		{method: "Runtime.evaluate", readOnly: true, want: refused, why: "read-only"},
		{method: "Runtime.callFunctionOn", readOnly: true, want: refused},
		{method: "Input.dispatchKeyEvent", readOnly: true, want: refused},
		{method: "Input.insertText", readOnly: true, want: refused},
		{method: "DOM.setOuterHTML", readOnly: true, want: refused},
		{method: "DOM.setFileInputFiles", readOnly: true, want: refused},
		{method: "DOM.focus", readOnly: true, want: refused},
		{method: "Emulation.setDeviceMetricsOverride", readOnly: true, want: refused},
		{method: "Page.reload", readOnly: true, want: refused},
		{method: "Page.printToPDF", readOnly: true, want: refused},
		{method: "Page.handleJavaScriptDialog", readOnly: true, want: refused},
		{method: "Debugger.enable", readOnly: true, want: refused},
		{method: "Network.replayXHR", readOnly: true, want: refused},
		{method: "Network.setCookie", readOnly: true, want: refused},
		{method: "DOMStorage.setDOMStorageItem", readOnly: true, want: refused},
		{method: "Overlay.highlightNode", readOnly: true, want: refused},
		{method: "Runtime.releaseObjectGroup", readOnly: true, want: refused},
	}
	for _, tc := range tests {
		scope, err := Check(tc.method, tc.level, tc.readOnly, json.RawMessage(tc.params))
		got := scopeNames[scope]
		var ref *Refusal
		if errors.As(err, &ref) {
			got = refused
			if ref.Method != tc.method || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("%s (level %d, read-only %v): refusal %q does not say %q", tc.method, tc.level, tc.readOnly, err, tc.why)
			}
		} else if err != nil {
			t.Errorf("%s: %v is not a *Refusal", tc.method, err)
		}
		if got != tc.want {
			t.Errorf("%s (level %d, read-only %v) = %s, want %s (err %v)", tc.method, tc.level, tc.readOnly, got, tc.want, err)
		}
	}
}

var scopeNames = map[Scope]string{Free: "free", OwnContext: "OwnContext", OwnTarget: "OwnTarget",
	FilterTargets: "FilterTargets", FilterContexts: "FilterContexts", CheckURL: "CheckURL", NewTarget: "NewTarget"}

// Every read-only method is also allowed in normal mode, and none of the
// methods that write is among them.
func TestReadOnlyIsReading(t *testing.T) {
	all := map[string]bool{}
	for _, m := range Methods() {
		all[m] = true
	}
	for _, m := range ReadOnlyMethods() {
		if !all[m] {
			t.Errorf("%s is read-only but not allowed", m)
		}
		_, name, _ := strings.Cut(m, ".")
		for _, verb := range []string{"set", "dispatch", "insert", "remove", "clear", "delete", "navigate", "reload", "evaluate", "call", "focus", "start", "crash", "close"} {
			if strings.HasPrefix(name, verb) {
				t.Errorf("read-only method %s looks like it writes (%s…)", m, verb)
			}
		}
	}
	if n := len(ReadOnlyMethods()); n < 80 {
		t.Errorf("only %d read-only methods", n)
	}
}
