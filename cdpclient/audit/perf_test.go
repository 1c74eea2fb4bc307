package audit

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// The performance audit of a traced load finds exactly the planted problems,
// names the LCP element and the shifting ones, and leaves a trace DevTools
// can open; the clean twin has no findings; the current page's own timeline
// says the same without loading it again.
func TestAuditPerformanceFixtures(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	bad := cdptest.Site.URL("/audit/perf-bad.html")
	res := func(q string) string { return cdptest.Site.URL("/audit/res?" + q) }
	rep, err := Performance(ctx, p, PerformanceOptions{URL: bad})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"cls-high " + bad,
		"render-blocking " + res("kind=css&kb=1&ms=150"),
		"render-blocking " + res("kind=js&kb=40&ms=100"),
		"tbt-high " + bad,
		"uncached " + res("kind=css&kb=1&ms=150"),
		"uncached " + res("kind=img&kb=1&ms=300"),
		"uncached " + res("kind=js&kb=40&ms=100"),
		"uncompressed " + res("kind=js&kb=40&ms=100"),
	}
	if diff := cmp.Diff(want, planted(t, rep.Findings)); diff != "" {
		t.Errorf("perf-bad findings (-want +got):\n%s", diff)
	}
	if rep.LCP == nil || rep.LCP.Selector != "#hero" || rep.LCP.Ref == "" || rep.LCP.Kind != "image" {
		t.Errorf("LCP element = %+v, want the image #hero with a ref", rep.LCP)
	}
	shifted := false
	for _, s := range rep.Shifts {
		for _, e := range s.Elements {
			shifted = shifted || e.Selector == "#hero"
		}
	}
	if !shifted {
		t.Errorf("shifts %+v do not name #hero", rep.Shifts)
	}
	m := rep.Metrics
	if m.TTFB == nil || m.FCP == nil || m.LCP == nil || m.CLS == nil || m.TBT == nil || *m.FCP > *m.LCP || *m.TTFB > *m.FCP {
		t.Errorf("metrics out of order: %+v", m)
	}
	var trace struct {
		TraceEvents []json.RawMessage `json:"traceEvents"`
	}
	if err := json.Unmarshal(rep.Trace, &trace); err != nil || len(trace.TraceEvents) < 100 {
		t.Errorf("trace is not a DevTools trace (%d events): %v", len(trace.TraceEvents), err)
	}
	// The same page read from its timeline, with no new load.
	tl, err := Performance(ctx, p, PerformanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tl.Source != "timeline" || tl.Metrics.CLS == nil || *tl.Metrics.CLS < 0.1 || tl.LCP == nil || tl.LCP.Selector != "#hero" || len(tl.LongTasks) == 0 {
		t.Errorf("timeline reading of perf-bad: %+v LCP %+v", tl.Metrics, tl.LCP)
	}
	// An interaction scripted before the audit is measured: INP.
	if fb, err := p.Click(ctx, cdpclient.Target{Selector: "#slow"}, cdpclient.ClickOptions{}); err != nil || !fb.OK {
		t.Fatalf("click: %v %+v", err, fb)
	}
	tl, err = Performance(ctx, p, PerformanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if inp := tl.Metrics.INP; inp == nil || *inp < 300 || !slices.Contains(rulesAt(tl.Findings), "inp-slow "+bad) {
		t.Errorf("INP after a 300 ms click handler: %v, findings %v", inp, rulesAt(tl.Findings))
	}
	good, err := Performance(ctx, p, PerformanceOptions{URL: cdptest.Site.URL("/audit/perf-good.html")})
	if err != nil {
		t.Fatal(err)
	}
	if got := planted(t, good.Findings); len(got) != 0 {
		t.Errorf("perf-good findings: %v", got)
	}
}

// machineSpeed are the findings a fixture cannot plant: how fast the first
// byte, the first paint and the largest paint come is the machine's, and a
// loaded one is slow (fcp-slow on perf-bad, make test, race half).
var machineSpeed = []string{"ttfb-slow", "fcp-slow", "lcp-slow"}

// planted is rulesAt without the machine's findings, which it logs.
func planted(t *testing.T, fs []Finding) []string {
	var out []string
	for _, r := range rulesAt(fs) {
		if rule, _, _ := strings.Cut(r, " "); slices.Contains(machineSpeed, rule) {
			t.Logf("a loaded machine's finding, not the page's: %s", r)
			continue
		}
		out = append(out, r)
	}
	return out
}

// Mobile throttling slows the audited load only: the next load is fast again.
// (A throttled load's TTFB is never under the preset's latency, however idle
// the machine; an unthrottled one is, however busy, on one of a few tries.)
func TestAuditPerformanceThrottle(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	u := cdptest.Site.URL("/audit/perf-good.html")
	slow, err := Performance(ctx, p, PerformanceOptions{URL: u, Throttle: "mobile"})
	if err != nil {
		t.Fatal(err)
	}
	var fast *PerformanceReport
	for range 5 {
		if fast, err = Performance(ctx, p, PerformanceOptions{URL: u}); err != nil {
			t.Fatal(err)
		}
		if *fast.Metrics.TTFB < mobileLatencyMs {
			break
		}
	}
	if *slow.Metrics.TTFB < mobileLatencyMs || *fast.Metrics.TTFB >= mobileLatencyMs || slow.Throttle != "mobile" {
		t.Errorf("TTFB throttled %.0f ms, then %.0f ms: want ≥ %.0f, then fast", *slow.Metrics.TTFB, *fast.Metrics.TTFB, mobileLatencyMs)
	}
	if _, err := Performance(ctx, p, PerformanceOptions{Throttle: "3g"}); !isArgErr(err) {
		t.Errorf("an unknown preset: %v", err)
	}
}

func isArgErr(err error) bool {
	var ae *cdpclient.ArgError
	return errors.As(err, &ae)
}
