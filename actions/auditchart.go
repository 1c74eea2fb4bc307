package actions

import (
	"fmt"
	"math"
	"net/url"
	"path"

	"github.com/cdpmcp/cdpmcp/cdpclient/audit"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 900.0
	chartLabel  = 220.0 // room for request names on the left
	chartRow    = 14.0
	chartTop    = 24.0
	chartMaxRow = 40
)

// reportChart is a performance timeline drawn as SVG: the requests as a
// waterfall, long tasks and layout shifts on their own rows, and lines at
// FCP, LCP and load.
type reportChart struct {
	Width, Height float64
	Bars          []chartBar
	Marks         []chartMark
	Ticks         []chartMark
	More          int
}

type chartBar struct {
	X, Y, W float64
	Label   string
	Class   string
	Title   string
}

type chartMark struct {
	X     float64
	Label string
}

// perfChart lays out a performance report's timeline.
func perfChart(r *audit.PerformanceReport) reportChart {
	end := 100.0
	for _, res := range r.Timeline {
		end = math.Max(end, res.End)
	}
	for _, t := range r.LongTasks {
		end = math.Max(end, t.At+t.Duration)
	}
	for _, s := range r.Shifts {
		end = math.Max(end, s.At)
	}
	for _, v := range []*float64{r.Metrics.FCP, r.Metrics.LCP, r.Metrics.Load} {
		if v != nil {
			end = math.Max(end, *v)
		}
	}
	end *= 1.05
	scale := (chartWidth - chartLabel) / end
	x := func(ms float64) float64 { return chartLabel + math.Max(ms, 0)*scale }
	c := reportChart{Width: chartWidth}
	y := chartTop
	for i, res := range r.Timeline {
		if i >= chartMaxRow {
			c.More = len(r.Timeline) - chartMaxRow
			break
		}
		w := math.Max((res.End-res.Start)*scale, 2)
		c.Bars = append(c.Bars, chartBar{X: x(res.Start), Y: y, W: w, Label: shortName(res.URL), Class: "t-" + res.Type,
			Title: fmt.Sprintf("%s %s %d B %.0f–%.0f ms", res.Type, res.URL, res.Bytes, res.Start, res.End)})
		y += chartRow
	}
	for _, t := range r.LongTasks {
		c.Bars = append(c.Bars, chartBar{X: x(t.At), Y: y, W: math.Max(t.Duration*scale, 2), Label: "long tasks", Class: "task",
			Title: fmt.Sprintf("task %.0f ms at %.0f ms", t.Duration, t.At)})
	}
	if len(r.LongTasks) > 0 {
		y += chartRow
	}
	for _, s := range r.Shifts {
		c.Bars = append(c.Bars, chartBar{X: x(s.At) - 2, Y: y, W: 4, Label: "layout shifts", Class: "shift",
			Title: fmt.Sprintf("layout shift %.3f at %.0f ms", s.Score, s.At)})
	}
	if len(r.Shifts) > 0 {
		y += chartRow
	}
	c.Height = y + 20
	mark := func(name string, v *float64) {
		if v != nil {
			c.Marks = append(c.Marks, chartMark{X: x(*v), Label: fmt.Sprintf("%s %.0f", name, *v)})
		}
	}
	mark("FCP", r.Metrics.FCP)
	mark("LCP", r.Metrics.LCP)
	mark("load", r.Metrics.Load)
	step := niceStep(end / 6)
	for t := 0.0; t <= end; t += step {
		c.Ticks = append(c.Ticks, chartMark{X: x(t), Label: fmt.Sprintf("%.0f ms", t)})
	}
	return c
}

// niceStep rounds a tick interval to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(math.Max(v, 1))))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// shortName is the last part of a URL's path, for a bar's label.
func shortName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	name := path.Base(u.Path)
	if name == "/" || name == "." {
		name = u.Host
	}
	if u.RawQuery != "" {
		name += "?" + u.RawQuery
	}
	if len(name) > 34 {
		name = name[:secrets.Cut(name, 33)] + "…"
	}
	return name
}
