package tools

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// A newcomer's short password on a page that already shows the word, and
// fill {"value":"password"} under a "Password" label: the page's own words
// and cdpmcp's markup read as they did, while the page's echo of the typed
// value, the field's value and the URL the form sends are masked; the
// answer of type and fill says how the value shows from now on.
func TestNewcomerPagesKeepTheirWords(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Secrets: secrets.New()}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)
	want := func(what, text string, has []string, hasNot []string) {
		t.Helper()
		for _, w := range has {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, text)
			}
		}
		for _, w := range hasNot {
			if strings.Contains(text, w) {
				t.Errorf("%s holds %q:\n%s", what, w, text)
			}
		}
	}

	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/newcomer/wrong.html")}))
	typed := callTool(t, c, "type", map[string]any{"selector": "#pw", "text": "wrong"})
	mustOK(t, typed)
	want("type's answer", typed.text, []string{"shows as " + secrets.Mask}, []string{"wrong"})
	snap := callTool(t, c, "snapshot", nil).text
	want("the snapshot", snap, []string{"Wrong password?", "Reset it", "type=password filled", "you typed " + secrets.Mask},
		[]string{"you typed wrong", secrets.Mask + " password"})
	text := callTool(t, c, "getContent", map[string]any{"format": "text"}).text
	want("the page's text", text, []string{"Wrong password?", "you typed " + secrets.Mask}, []string{"you typed wrong"})
	value := callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#pw').value"}).text
	want("the field's value", value, []string{secrets.Mask}, []string{"wrong"})

	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/newcomer/login.html")}))
	mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#username", "value": "ann"}))
	filled := callTool(t, c, "fill", map[string]any{"selector": "#password", "value": "password"})
	mustOK(t, filled)
	want("fill's answer", filled.text, []string{"shows as " + secrets.Mask}, nil)
	snap = callTool(t, c, "snapshot", nil).text
	want("the snapshot", snap, []string{"<input type=password filled>Password</input>", "Forgot your password?", "you typed " + secrets.Mask},
		[]string{"type=" + secrets.Mask, ">" + secrets.Mask + "<", "you typed password"})
	html := callTool(t, c, "getContent", map[string]any{"format": "html"}).text
	want("the page's HTML", html, []string{`type="password"`, `name="password"`, `autocomplete="current-password"`, "forgot-password.html"},
		[]string{"you typed password"})
	text = callTool(t, c, "getContent", map[string]any{"format": "text"}).text
	want("the page's text", text, []string{"Username", "Password", "Sign in", "Forgot your password?"}, []string{"you typed password"})
	value = callTool(t, c, "evaluate", map[string]any{"expression": "document.querySelector('#password').value"}).text
	want("the field's value", value, []string{secrets.Mask}, []string{`"password"`})
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#signin"}))
	mustOK(t, callTool(t, c, "waitFor", map[string]any{"text": "You said"}))
	url := callTool(t, c, "getUrl", nil).text
	want("the URL the form sent", url, []string{"password=" + secrets.Mask}, []string{"password=password"})
	echo := callTool(t, c, "getContent", map[string]any{"format": "text"}).text
	want("the echo page", echo, []string{"You said " + secrets.Mask}, []string{"You said password"})
}
