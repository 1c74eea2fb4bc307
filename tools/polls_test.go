package tools

import (
	"encoding/json"
	"testing"
)

// A page that polls (a read every 300 ms, a long poll asked again as each
// ends) does not hold a click's answer open, nor fill its net: the click on
// Save answers with its POST and what it showed, not with the poll's reads,
// and not with a change its page makes 2.5 s later (which the poll's answers
// kept inside the old quiet window, open up to 3 s). A Refresh button that
// reads what the poll reads is the click's own read.
func TestPollsAreNotTheClicks(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/polling.html")}))
	waitUntil(t, "the page's polls to repeat", func() bool {
		return callTool(t, c, "evaluate", map[string]any{"expression": "window.polls >= 3 && window.longPolls >= 2"}).text == "true"
	})
	type net struct {
		M, U string
		S    int
	}
	var fb struct {
		Net   []net `json:"net"`
		Delta struct {
			Text [][]string `json:"text"`
		} `json:"delta"`
	}
	r := callTool(t, c, "click", map[string]any{"selector": "#save"})
	mustOK(t, r)
	if err := json.Unmarshal([]byte(r.text), &fb); err != nil {
		t.Fatalf("%v: %s", err, r.text)
	}
	if len(fb.Net) != 1 || fb.Net[0] != (net{M: "POST", U: "/echo", S: 200}) {
		t.Errorf("the click's net holds more than its POST: %s", r.text)
	}
	wantIn(t, r, `"Saved"`)
	if contains(r.text, "Synced later") {
		t.Errorf("the page's poll held the click's answer open till a change 2.5 s later: %s", r.text)
	}
	r = callTool(t, c, "click", map[string]any{"selector": "#refresh"})
	mustOK(t, r)
	wantIn(t, r, `"Refreshed"`, `{"u":"/attack/ping?t=refresh","s":204}`)
}
