package tools

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// Passwords typed key by key ("summer2024", "Password1") into a form whose
// strength meter asks about each start: the starts in the network log are
// masked, while the page's words that only begin like them ("summer2025",
// "Passwords") read as they are (they read "[secret]5", "[secret]s").
func TestTypedStartsLeaveLongerWords(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Secrets: secrets.New()}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/secrets/form?method=post&n=2")}))
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#pw0", "text": "summer2024"}))
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#pw1", "text": "Password1"}))
	mustOK(t, callTool(t, c, "evaluate", map[string]any{"expression": "document.body.insertAdjacentHTML('beforeend', " +
		"'<p id=ad>Shop the summer2025 sale: Summer2023 is gone. Passwords must match; Passwordless sign-in soon.</p>'); 1"}))
	text := callTool(t, c, "getContent", map[string]any{"format": "text"})
	mustOK(t, text)
	if want := "Shop the summer2025 sale: Summer2023 is gone. Passwords must match; Passwordless sign-in soon."; !strings.Contains(text.text, want) {
		t.Errorf("the page's text lacks %q:\n%s", want, text.text)
	}
	if strings.Contains(text.text, "summer2024") || strings.Contains(text.text, "Password1") {
		t.Errorf("the page's text shows a password:\n%s", text.text)
	}
	net := callTool(t, c, "network", map[string]any{"limit": 100})
	mustOK(t, net)
	if !strings.Contains(net.text, "strength?v="+secrets.Mask) || strings.Contains(net.text, "summer20") || strings.Contains(net.text, "Passwor") {
		t.Errorf("the strength meter's requests show a start of a password:\n%s", net.text)
	}
}
