package audit

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// PerformanceReport is what a performance audit measured. Times are in
// milliseconds from the navigation's start; nil means not measured.
type PerformanceReport struct {
	URL      string `json:"url"`
	Status   int    `json:"status,omitempty"`
	Throttle string `json:"throttle"`
	// Source is "trace" (a load recorded by Performance) or "timeline"
	// (the current page's own performance timeline).
	Source  string        `json:"source"`
	Metrics Metrics       `json:"metrics"`
	LCP     *NamedElement `json:"lcpElement,omitempty"`
	// Shifts are the layout shifts of the worst session window, largest first.
	Shifts    []Shift    `json:"shifts,omitempty"`
	LongTasks []Task     `json:"longTasks,omitempty"`
	Requests  Requests   `json:"requests"`
	Blocking  []Resource `json:"renderBlocking,omitempty"`
	Largest   []Resource `json:"largest,omitempty"`
	// Uncompressed are text responses over 1.4 kB sent without compression;
	// Uncached are static resources a browser may not reuse.
	Uncompressed []Resource `json:"uncompressed,omitempty"`
	Uncached     []Resource `json:"uncached,omitempty"`
	// Timeline is every request, for the report's waterfall.
	Timeline []Resource `json:"timeline,omitempty"`
	Findings []Finding  `json:"findings,omitempty"`
	// Trace is the recorded trace (JSON), which Chrome DevTools' Performance
	// panel opens.
	Trace []byte `json:"-"`
	// traceNodes are the backend node ids behind LCP and the shifts.
	lcpNode   int
	shiftNode map[int][]int
}

// Metrics are the page's timings and scores.
type Metrics struct {
	TTFB *float64 `json:"ttfb,omitempty"`
	FCP  *float64 `json:"fcp,omitempty"`
	LCP  *float64 `json:"lcp,omitempty"`
	CLS  *float64 `json:"cls,omitempty"`
	TBT  *float64 `json:"tbt,omitempty"`
	// INP is the slowest interaction seen (ms), when there was one.
	INP *float64 `json:"inp,omitempty"`
	// Load is when the load event ended.
	Load *float64 `json:"load,omitempty"`
}

// NamedElement names a page element a measurement points at.
type NamedElement struct {
	Ref      string `json:"ref,omitempty"`
	Selector string `json:"selector,omitempty"`
	HTML     string `json:"html,omitempty"`
	// Kind is what LCP painted: "image" or "text"; URL the image's address.
	Kind string `json:"kind,omitempty"`
	URL  string `json:"url,omitempty"`
	Size int    `json:"size,omitempty"`
}

// Shift is one layout shift.
type Shift struct {
	At       float64        `json:"at"`
	Score    float64        `json:"score"`
	Elements []NamedElement `json:"elements,omitempty"`
}

// Task is a main-thread task longer than 50 ms.
type Task struct {
	At       float64 `json:"at"`
	Duration float64 `json:"duration"`
}

// Requests sums the page's requests.
type Requests struct {
	Count  int                   `json:"count"`
	Bytes  int64                 `json:"bytes"`
	ByType map[string]*TypeTotal `json:"byType,omitempty"`
}

// TypeTotal is the requests of one resource type.
type TypeTotal struct {
	Count int   `json:"count"`
	Bytes int64 `json:"bytes"`
}

// Resource is one request of the page.
type Resource struct {
	URL    string  `json:"url"`
	Type   string  `json:"type"`
	Status int     `json:"status,omitempty"`
	Bytes  int64   `json:"bytes"`            // transferred
	Body   int64   `json:"body,omitempty"`   // decoded body size
	Start  float64 `json:"start"`            // ms from navigation start
	End    float64 `json:"end"`              // ms from navigation start
	Note   string  `json:"note,omitempty"`   // why it is listed (header values)
	Cached bool    `json:"cached,omitempty"` // served from a cache
}

func ms(v float64) *float64 { return &v }

// findings turns the measurements into findings, with Core Web Vitals'
// "needs improvement" and "poor" thresholds.
func (r *PerformanceReport) findings() {
	m := r.Metrics
	metric := func(rule string, v *float64, good, poor float64, what, unit string) {
		if v == nil || *v <= good {
			return
		}
		sev := SeverityModerate
		if *v > poor {
			sev = SeveritySerious
		}
		val := fmt.Sprintf("%.0f ms", *v)
		if unit == "" {
			val = fmt.Sprintf("%.3f", *v)
		}
		r.Findings = append(r.Findings, Finding{Rule: rule, Severity: sev, URL: r.URL,
			Msg: fmt.Sprintf("%s is %s (good: ≤ %v%s)", what, val, good, unit)})
	}
	metric("ttfb-slow", m.TTFB, 800, 1800, "time to first byte", " ms")
	metric("fcp-slow", m.FCP, 1800, 3000, "first contentful paint", " ms")
	metric("lcp-slow", m.LCP, 2500, 4000, "largest contentful paint", " ms")
	metric("cls-high", m.CLS, 0.1, 0.25, "cumulative layout shift", "")
	metric("tbt-high", m.TBT, 200, 600, "total blocking time", " ms")
	metric("inp-slow", m.INP, 200, 500, "interaction to next paint", " ms")
	if len(r.Findings) > 0 && r.LCP != nil {
		for i := range r.Findings {
			if r.Findings[i].Rule == "lcp-slow" {
				r.Findings[i].Ref, r.Findings[i].Selector, r.Findings[i].HTML = r.LCP.Ref, r.LCP.Selector, r.LCP.HTML
			}
		}
	}
	for _, res := range r.Blocking {
		r.Findings = append(r.Findings, Finding{Rule: "render-blocking", Severity: SeverityModerate, URL: res.URL,
			Msg: fmt.Sprintf("%s blocks the first paint (%.0f ms): load it async/defer, or inline what the first screen needs", res.Type, res.End-res.Start)})
	}
	for _, res := range r.Uncompressed {
		r.Findings = append(r.Findings, Finding{Rule: "uncompressed", Severity: SeverityMinor, URL: res.URL,
			Msg: fmt.Sprintf("%s of %d bytes sent without compression (gzip, br)", res.Type, res.Body)})
	}
	for _, res := range r.Uncached {
		r.Findings = append(r.Findings, Finding{Rule: "uncached", Severity: SeverityMinor, URL: res.URL,
			Msg: fmt.Sprintf("%s cannot be reused from the browser cache (%s)", res.Type, res.Note)})
	}
}

// nameLCP and the shifting elements by ref and selector, where they still
// exist.
func nameLCP(ctx context.Context, d cdpclient.Door, r *PerformanceReport) {
	var ids []int
	if r.lcpNode > 0 {
		ids = append(ids, r.lcpNode)
	}
	for _, n := range r.shiftNode {
		ids = append(ids, n...)
	}
	if len(ids) == 0 {
		return
	}
	named := nameNodes(ctx, d, ids)
	if r.LCP != nil {
		if e, ok := named[r.lcpNode]; ok {
			r.LCP.Ref, r.LCP.Selector, r.LCP.HTML = e.Ref, e.Selector, e.HTML
		}
	}
	for i := range r.Shifts {
		for _, n := range r.shiftNode[i] {
			if e, ok := named[n]; ok {
				r.Shifts[i].Elements = append(r.Shifts[i].Elements, e)
			}
		}
	}
}

// cacheable reports whether response headers let a browser reuse a resource,
// and if not, why.
func cacheable(cc, expires string) (bool, string) {
	cc = strings.ToLower(cc)
	switch {
	case strings.Contains(cc, "no-store"):
		return false, "Cache-Control: " + cc
	case strings.Contains(cc, "no-cache"):
		return false, "Cache-Control: " + cc
	case strings.Contains(cc, "max-age="):
		var age int
		i := strings.Index(cc, "max-age=")
		fmt.Sscanf(cc[i+len("max-age="):], "%d", &age)
		if age <= 0 {
			return false, "Cache-Control: " + cc
		}
		return true, ""
	case expires != "":
		return true, ""
	case cc == "":
		return false, "no Cache-Control or Expires header"
	}
	return false, "Cache-Control: " + cc
}

// top returns the n largest resources by bytes transferred.
func top(rs []Resource, n int) []Resource {
	out := append([]Resource(nil), rs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Bytes > out[j].Bytes })
	if len(out) > n {
		out = out[:n]
	}
	return out
}
