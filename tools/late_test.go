package tools

import (
	"encoding/json"
	"slices"
	"strings"
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

// What the page does on its own after an action's answer (a submit sent a
// second after the click, an error, a tab it opens) is reported by the next
// action's answer under "before", apart from that action's own effects: not
// lost, and not taken for its doing.
func TestNextAnswerSaysWhatCameBefore(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/timer-order.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#order"})
	mustOK(t, r)
	if strings.Contains(r.text, "/echo") || strings.Contains(r.text, `"before"`) {
		t.Fatalf("the order went out within the click's answer (the page is meant to be later): %s", r.text)
	}
	waitUntil(t, "the late order and its tab", func() bool {
		return callTool(t, c, "evaluate", map[string]any{"expression": "document.title"}).text == `"Ordered 1"` &&
			strings.Contains(callTool(t, c, "listPages", nil).text, "/second.html")
	})
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	mustOK(t, r)
	var fb struct {
		Errors []string `json:"errors"`
		Net    []struct {
			M, U string
		} `json:"net"`
		Before struct {
			Errors []string `json:"errors"`
			Net    []struct {
				M, U string
				S    int
			} `json:"net"`
			Opened []string `json:"opened"`
		} `json:"before"`
	}
	if err := json.Unmarshal([]byte(r.text), &fb); err != nil {
		t.Fatalf("%v: %s", err, r.text)
	}
	b := fb.Before
	if len(b.Net) != 1 || b.Net[0].M != "POST" || b.Net[0].U != "/echo" || b.Net[0].S != 200 ||
		!slices.Contains(b.Errors, "late boom") || len(b.Opened) != 1 || !strings.HasSuffix(b.Opened[0], "/second.html") {
		t.Errorf("before = %+v, want the POST, the error and the tab: %s", b, r.text)
	}
	ownPost := slices.ContainsFunc(fb.Net, func(n struct{ M, U string }) bool { return n.M == "POST" })
	if len(fb.Errors) > 0 || ownPost || strings.Contains(r.text, `"page":"p2"`) {
		t.Errorf("the click's own answer holds what came before it: %s", r.text)
	}
	wantIn(t, r, `"other clicked"`)
	// Said once: the answer after that has nothing before it.
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	if strings.Contains(r.text, `"before"`) {
		t.Errorf("the same before, again: %s", r.text)
	}
}

// A tab that goes elsewhere on its own after an answer (an SPA's route a
// timer pushes, a timer's location.assign) says so in the next answer, as
// before.url: a click that then misses its element is told why.
func TestNextAnswerSaysWhereTheTabWent(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/late-route.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#route"})
	mustOK(t, r)
	if strings.Contains(r.text, "checkout") {
		t.Fatalf("the route came within the click's answer (the page is meant to be later): %s", r.text)
	}
	waitUntil(t, "the late route", func() bool {
		return callTool(t, c, "evaluate", map[string]any{"expression": "location.pathname"}).text == `"/behave/checkout"`
	})
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	mustOK(t, r)
	wantIn(t, r, `"before":{"url":"/behave/checkout"`, `"Checkout"`, `"other clicked"`)
	if strings.Contains(r.text, `"delta":{"url"`) {
		t.Errorf("the route is taken for the click's doing: %s", r.text)
	}
	r = callTool(t, c, "click", map[string]any{"selector": "#leave"})
	mustOK(t, r)
	waitUntil(t, "the late navigation", func() bool {
		return callTool(t, c, "evaluate", map[string]any{"expression": "location.pathname"}).text == `"/second.html"`
	})
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	if !r.isError {
		t.Fatalf("a click on an element of the page the tab left: %s", r.text)
	}
	wantIn(t, r, `"before":{"url":"/second.html"}`, `on its own`)
	// Said once.
	r = callTool(t, c, "click", map[string]any{"selector": "a"})
	if strings.Contains(r.text, `"before"`) {
		t.Errorf("the same before, again: %s", r.text)
	}
}
