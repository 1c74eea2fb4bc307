package actions

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/audit"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

type auditPerformanceArgs struct {
	URL       string `json:"url" desc:"load this URL cold and trace it (default: measure the current page as it loaded, no trace)"`
	Throttle  string `json:"throttle" enum:"none,mobile" desc:"mobile: Lighthouse's mobile throttling (4x CPU, slow 4G) for this load"`
	Page      string `json:"page"`
	TimeoutMs int    `json:"timeoutMs" desc:"deadline in ms (default 60000, max 120000)"`
}

// AuditPerformance measures a page load.
var AuditPerformance = auditGroup(define("auditPerformance",
	"Performance audit: with url, a cold load under a trace (a file Chrome DevTools opens); else the current page's own timings. TTFB, FCP, LCP+element, CLS+shifting elements, TBT, INP so far, requests by type, render-blocking, largest, uncompressed, uncached.",
	ClassNavigate, Hints{OpenWorld: true},
	func(ctx context.Context, env *Env, a auditPerformanceArgs) (*Result, error) {
		if a.URL != "" {
			if res, err := env.checkNavURL("auditPerformance", a.URL); res != nil || err != nil {
				return res, err
			}
		}
		ctx, cancel, err := deadline(ctx, a.TimeoutMs, time.Minute)
		if err != nil {
			return nil, err
		}
		defer cancel()
		p, err := env.usablePage(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		rep, err := audit.Performance(ctx, p, audit.PerformanceOptions{URL: a.URL, Throttle: a.Throttle})
		if err != nil {
			return nil, err
		}
		var trace string
		if len(rep.Trace) > 0 {
			if trace, err = env.writeArtifact("trace", "json", rep.Trace); err != nil {
				return nil, err
			}
		}
		rep.Trace = nil // on disk now; the session keeps only the measurements
		path, err := env.writeJSON("performance", rep)
		if err != nil {
			return nil, err
		}
		env.keepAudit(ctx, &auditRecord{Kind: "performance", URL: rep.URL, Findings: rep.Findings, Perf: rep, Artifact: path})
		text := perfSummary(p.ID, rep) + findingLines(rep.Findings, feedback.Origin(rep.URL))
		files := []string{path}
		if trace != "" {
			text += "trace (open in Chrome DevTools > Performance > Load profile): " + trace + "\n"
			files = append(files, trace)
		}
		return &Result{Text: text + "full data: " + path, Files: files}, nil
	}).ownTimeout())

// perfSummary is a performance report's measurements in a few lines.
func perfSummary(page string, r *audit.PerformanceReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "performance %s %s (%s, throttle %s)", page, r.URL, r.Source, r.Throttle)
	if r.Status > 0 {
		fmt.Fprintf(&b, " status %d", r.Status)
	}
	b.WriteString("\n")
	m := r.Metrics
	var parts []string
	msPart := func(name string, v *float64) {
		if v != nil {
			parts = append(parts, fmt.Sprintf("%s %.0f ms", name, *v))
		}
	}
	msPart("TTFB", m.TTFB)
	msPart("FCP", m.FCP)
	msPart("LCP", m.LCP)
	if r.LCP != nil && len(parts) > 0 {
		el := r.LCP.Kind
		if r.LCP.Ref != "" {
			el += " ref=" + r.LCP.Ref
		}
		if r.LCP.Selector != "" {
			el += " " + r.LCP.Selector
		}
		parts[len(parts)-1] += " (" + strings.TrimSpace(el) + ")"
	}
	if m.CLS != nil {
		parts = append(parts, fmt.Sprintf("CLS %.3f", *m.CLS))
	}
	msPart("TBT", m.TBT)
	msPart("INP", m.INP)
	msPart("load", m.Load)
	b.WriteString(strings.Join(parts, " · "))
	if n := len(r.LongTasks); n > 0 {
		fmt.Fprintf(&b, " · %d long task(s)", n)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "requests %d, %s", r.Requests.Count, kb(r.Requests.Bytes))
	types := make([]string, 0, len(r.Requests.ByType))
	for t := range r.Requests.ByType {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return r.Requests.ByType[types[i]].Bytes > r.Requests.ByType[types[j]].Bytes })
	var tp []string
	for _, t := range types {
		tt := r.Requests.ByType[t]
		tp = append(tp, fmt.Sprintf("%s %d %s", t, tt.Count, kb(tt.Bytes)))
	}
	if len(tp) > 0 {
		b.WriteString(": " + strings.Join(tp, ", "))
	}
	b.WriteString("\n")
	if len(r.Shifts) > 0 {
		var els []string
		for _, s := range r.Shifts {
			for _, e := range s.Elements {
				els = append(els, strings.TrimSpace("ref="+e.Ref+" "+e.Selector))
			}
		}
		if len(els) > 0 {
			fmt.Fprintf(&b, "shifting: %s\n", strings.Join(uniq(els, 6), ", "))
		}
	}
	return b.String()
}

func kb(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f kB", float64(n)/1024)
}

func uniq(s []string, max int) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] && len(out) < max {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

type auditLinksArgs struct {
	URL        string `json:"url" required:"true" desc:"where the crawl starts"`
	MaxPages   int    `json:"maxPages" desc:"hard limit on pages opened (default 20, max 500)"`
	SameOrigin *bool  `json:"sameOrigin" desc:"open only pages of the start's origin, check other links (default true)"`
	TimeoutMs  int    `json:"timeoutMs" desc:"deadline in ms (default 120000, max 120000); the crawl reports what it saw by then"`
}

// AuditLinks crawls a site for broken links.
var AuditLinks = auditGroup(define("auditLinks",
	"Crawl a site read-only from url (GET page loads in a tab of its own, HEAD checks of other links; never submits forms; origin rules hold): broken links (4xx/5xx, unreachable), redirect chains, pages with console errors. Stops at maxPages. Sends a progress notification per page.",
	ClassNavigate, Hints{ReadOnly: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a auditLinksArgs) (*Result, error) {
		if err := require("url", a.URL, `{"url":"https://example.com/"}`); err != nil {
			return nil, err
		}
		if a.MaxPages < 0 {
			return nil, argErr("give a positive page limit, e.g. 50", "maxPages %d is negative", a.MaxPages)
		}
		if res, err := env.checkNavURL("auditLinks", a.URL); res != nil || err != nil {
			return res, err
		}
		ctx, cancel, err := deadline(ctx, a.TimeoutMs, 2*time.Minute)
		if err != nil {
			return nil, err
		}
		defer cancel()
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		progress := progressOf(ctx)
		rep, err := audit.Links(ctx, bc, audit.LinksOptions{URL: a.URL, MaxPages: a.MaxPages, SameOrigin: a.SameOrigin == nil || *a.SameOrigin,
			Progress: func(done, total int, url string) { progress(done, total, "opened "+url) }})
		if err != nil {
			return nil, err
		}
		path, err := env.writeJSON("links", rep)
		if err != nil {
			return nil, err
		}
		env.keepAudit(ctx, &auditRecord{Kind: "links", URL: rep.Start, Findings: rep.Findings, Artifact: path})
		var b strings.Builder
		// Broken holds the pages opened that failed and the links checked
		// that did: each count says its own.
		brokenPages := 0
		for _, pg := range rep.Pages {
			if pg.Status >= 400 || pg.Error != "" {
				brokenPages++
			}
		}
		fmt.Fprintf(&b, "links from %s: %d pages opened (%d broken), %d other links checked (%d broken), %d redirected", rep.Start,
			len(rep.Pages), brokenPages, rep.Checked, max(len(rep.Broken)-brokenPages, 0), len(rep.Redirected))
		if len(rep.Outside) > 0 {
			fmt.Fprintf(&b, ", %d outside the allowed origins (not requested)", len(rep.Outside))
		}
		if rep.Stopped != "" {
			fmt.Fprintf(&b, "; stopped: %s", rep.Stopped)
			if rep.Unvisited > 0 {
				fmt.Fprintf(&b, " (%d pages found but not opened: raise maxPages)", rep.Unvisited)
			}
		}
		fmt.Fprintf(&b, "; %s\n", countBySeverity(rep.Findings))
		b.WriteString(findingLines(rep.Findings, feedback.Origin(rep.Start)))
		b.WriteString("full data: " + path)
		return &Result{Text: b.String(), Files: []string{path}}, nil
	}).ownTimeout())
