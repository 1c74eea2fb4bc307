package tools

import (
	"testing"

	"github.com/cdpmcp/cdpmcp/fixtures"
)

// An action's answer follows what its calls set off, however late within
// the quiet window: the commonest sign-in (the submit handler fetches the
// credentials, the server answers in half a second, the page goes on 150 ms
// later) answers a click and an Enter with the page it arrives at; with a
// wrong password, with the error the page shows; a late XMLHttpRequest
// that only changes the page, with the change; a click that starts nothing,
// with nothing.
func TestFeedbackFollowsLateEffects(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	signIn := func(password string) {
		t.Helper()
		mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/signin-fetch.html")}))
		mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#user", "value": "ada@example.com"}))
		mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#password", "value": password}))
	}
	signIn(fixtures.LoginPassword)
	r := callTool(t, c, "click", map[string]any{"selector": "#go"})
	mustOK(t, r)
	wantIn(t, r, `"url":"/behave/signed-in.html"`, `"title":"Account"`, `{"m":"POST","u":"/api/signin?ms=500","s":200}`)

	signIn(fixtures.LoginPassword)
	r = callTool(t, c, "pressKey", map[string]any{"selector": "#password", "key": "Enter"})
	mustOK(t, r)
	wantIn(t, r, `"url":"/behave/signed-in.html"`, `"title":"Account"`)

	signIn("not-the-password")
	r = callTool(t, c, "pressKey", map[string]any{"selector": "#password", "key": "Enter"})
	mustOK(t, r)
	wantIn(t, r, `"Wrong email or password."`, `"s":401`)

	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/late-effects.html")}))
	r = callTool(t, c, "click", map[string]any{"selector": "#load"})
	mustOK(t, r)
	wantIn(t, r, `"Report ready: 12 rows (slow done)"`, `{"u":"/slow?ms=600","s":200}`)

	r = callTool(t, c, "click", map[string]any{"selector": "#dead"})
	mustOK(t, r)
	if want := `{"act":"click","ok":true,"code":0,"timing":`; len(r.text) < len(want) || r.text[:len(want)] != want {
		t.Errorf("a click that starts nothing: %s", r.text)
	}
}
