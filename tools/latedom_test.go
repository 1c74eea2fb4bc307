package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// What a click set off on timers, past its answer (a toast that came and
// went, a text set 600 ms later, a button added 1.2 s later), is said by the
// next answer under before.delta, once; the page's clock, which ticks every
// 100 ms, is in neither answer, nor in that of a click whose call the answer
// follows for 400 ms and more.
func TestNextAnswerSaysWhatChangedLate(t *testing.T) {
	t.Parallel()
	t.Run("clock", func(t *testing.T) { t.Parallel(); testChangedLate(t, "/behave/late-dom.html") })
	// A clock every 4 ms for 2.5 s before the report: its records do not
	// fill what the page keeps of its changes, nor push the report out.
	t.Run("fast clock", func(t *testing.T) { t.Parallel(); testChangedLate(t, "/behave/late-dom.html?tick=4&delay=2500") })
}

func testChangedLate(t *testing.T, page string) {
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL(page)}))
	r := callTool(t, c, "click", map[string]any{"selector": "#build"})
	mustOK(t, r)
	if strings.Contains(r.text, "Report ready") || strings.Contains(r.text, "Download") {
		t.Fatalf("the report came within the click's answer (the page is meant to be later): %s", r.text)
	}
	waitUntil(t, "the late report", func() bool {
		return callTool(t, c, "evaluate", map[string]any{"expression": "window.built === true && !document.getElementById('toast')"}).text == "true"
	})
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	mustOK(t, r)
	var fb struct {
		Delta struct {
			Text [][2]string `json:"text"`
		} `json:"delta"`
		Before struct {
			Delta struct {
				Text  [][2]string `json:"text"`
				Added [][2]string `json:"added"`
				Flash []string    `json:"flash"`
			} `json:"delta"`
		} `json:"before"`
	}
	if err := json.Unmarshal([]byte(r.text), &fb); err != nil {
		t.Fatalf("%v: %s", err, r.text)
	}
	b := fb.Before.Delta
	if len(b.Text) != 1 || b.Text[0][1] != "Report ready: 12 rows" || len(b.Added) != 1 || b.Added[0][1] != "<button>Download CSV</button>" ||
		len(b.Flash) != 1 || b.Flash[0] != "Report queued" {
		t.Errorf("before.delta = %+v, want the text, the button and the toast: %s", b, r.text)
	}
	if len(fb.Delta.Text) != 1 || fb.Delta.Text[0][1] != "other clicked" {
		t.Errorf("the click's own delta: %s", r.text)
	}
	if strings.Contains(r.text, "Server time") || strings.Contains(r.text, "T0") || strings.Contains(r.text, "Z\"") {
		t.Errorf("the clock is in the answer: %s", r.text)
	}
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	if strings.Contains(r.text, `"before"`) {
		t.Errorf("the same before again, or the clock: %s", r.text)
	}
	r = callTool(t, c, "click", map[string]any{"selector": "#save"})
	mustOK(t, r)
	wantIn(t, r, `"Saved"`, `{"m":"POST","u":"/echo","s":200}`)
	if strings.Contains(r.text, "Z\"") || strings.Contains(r.text, `"before"`) {
		t.Errorf("the clock is in the answer of a click that waited for its call: %s", r.text)
	}
}

// A call the click's answer reported pending (its server took 3 s) is said
// again by the next answer once it ended, under before.net with its status.
func TestNextAnswerSaysHowAPendingCallEnded(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/late-dom.html")}))
	r := callTool(t, c, "click", map[string]any{"selector": "#slowsave"})
	mustOK(t, r)
	if !strings.Contains(r.text, `{"m":"POST","u":"/slow?ms=3000","pending":true}`) {
		t.Fatalf("the slow call is not pending in the click's answer (the server is meant to be later): %s", r.text)
	}
	waitUntil(t, "the slow save", func() bool {
		return strings.Contains(callTool(t, c, "evaluate", map[string]any{"expression": "document.getElementById('msg').textContent"}).text, "Saved slowly")
	})
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	mustOK(t, r)
	wantIn(t, r, `"before":{"delta":{"text":[["`, `"Saved slowly: 200"`, `"net":[{"m":"POST","u":"/slow?ms=3000","s":200}]`)
	r = callTool(t, c, "click", map[string]any{"selector": "#other"})
	if strings.Contains(r.text, `"before"`) {
		t.Errorf("the same before again: %s", r.text)
	}
}
