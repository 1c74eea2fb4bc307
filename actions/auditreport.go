package actions

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/audit"
)

//go:embed auditreport.html.tmpl
var reportTemplate string

var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"lower": strings.ToLower,
	"shot": func(b []byte) template.URL {
		return template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(b))
	},
	"fileURL": func(p string) template.URL { return template.URL("file://" + p) },
	"base":    filepath.Base,
	"ms": func(v *float64) string {
		if v == nil {
			return "–"
		}
		return fmt.Sprintf("%.0f ms", *v)
	},
	"score": func(v *float64) string {
		if v == nil {
			return "–"
		}
		return fmt.Sprintf("%.3f", *v)
	},
}).Parse(reportTemplate))

type auditReportArgs struct {
	Title string `json:"title" desc:"the report's heading (default: Audit report)"`
}

// AuditReport renders this session's audits as one HTML file.
var AuditReport = auditGroup(define("auditReport",
	"Write this session's audit findings as one self-contained HTML report (summary, findings by severity with element pictures, performance timeline); answers its path and a resource_link to read it. Run the audits first.",
	ClassRead, Hints{ReadOnly: true, OpenWorld: false},
	func(ctx context.Context, env *Env, a auditReportArgs) (*Result, error) {
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		recs := audits.of(bc)
		if len(recs) == 0 {
			return nil, argErr("run auditAccessibility, auditPerformance, auditSecurity or auditLinks first", "this session has no audits to report")
		}
		title := a.Title
		if title == "" {
			title = "Audit report"
		}
		html, err := renderReport(title, recs, !env.Remote)
		if err != nil {
			return nil, err
		}
		path, err := env.writeArtifact("report", "html", html)
		if err != nil {
			return nil, err
		}
		var all []audit.Finding
		for _, r := range recs {
			all = append(all, r.Findings...)
		}
		head := fmt.Sprintf("report of %s, %s: %s\n", plural(len(recs), "audit"), countBySeverity(all), path)
		if env.Remote {
			// Over HTTP the path is the server's: the client reads the file
			// through the link.
			return &Result{Text: head + "that path is on the server: read the report through this answer's resource_link (resources/read), then open it in a browser", Files: []string{path}}, nil
		}
		return &Result{Text: head + "open it in a browser: file://" + path, Files: []string{path}}, nil
	}))

// plural is n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// reportData is what the template renders.
type reportData struct {
	Title     string
	Generated string
	Audits    []reportAudit
	Groups    []reportGroup
	Perf      []reportPerf
	Total     int
	// Pages says the findings come from more than one page: the findings
	// tables then name each finding's page (a ref alone is ambiguous).
	Pages bool
	// Local says the reader is on the server's machine: the audits' data
	// files are linked as file:// URLs; otherwise only named.
	Local bool
}

type reportAudit struct {
	Kind, URL, Time, Artifact string
	Counts                    map[string]int
	Findings                  int
}

type reportGroup struct {
	Severity string
	Findings []reportFinding
}

type reportFinding struct {
	audit.Finding
	Kind, Page string
}

type reportPerf struct {
	URL, Throttle, Source string
	M                     audit.Metrics
	Chart                 reportChart
}

// renderReport lays the session's audits out as HTML.
func renderReport(title string, recs []*auditRecord, local bool) ([]byte, error) {
	d := reportData{Title: title, Generated: time.Now().Format("2006-01-02 15:04:05 MST"), Local: local}
	bySev := map[string][]reportFinding{}
	for _, r := range recs {
		ra := reportAudit{Kind: r.Kind, URL: r.URL, Time: r.Time.Format("15:04:05"), Artifact: r.Artifact, Counts: map[string]int{}, Findings: len(r.Findings)}
		for _, f := range r.Findings {
			ra.Counts[f.Severity]++
			bySev[f.Severity] = append(bySev[f.Severity], reportFinding{Finding: f, Kind: r.Kind, Page: r.URL})
		}
		d.Total += len(r.Findings)
		d.Audits = append(d.Audits, ra)
		if r.Perf != nil {
			d.Perf = append(d.Perf, reportPerf{URL: r.Perf.URL, Throttle: r.Perf.Throttle, Source: r.Perf.Source, M: r.Perf.Metrics, Chart: perfChart(r.Perf)})
		}
	}
	pages := map[string]bool{}
	for _, r := range recs {
		if len(r.Findings) > 0 {
			pages[r.URL] = true
		}
	}
	d.Pages = len(pages) > 1
	for _, s := range []string{audit.SeverityCritical, audit.SeveritySerious, audit.SeverityModerate, audit.SeverityMinor} {
		if len(bySev[s]) > 0 {
			d.Groups = append(d.Groups, reportGroup{Severity: s, Findings: bySev[s]})
		}
	}
	var b bytes.Buffer
	if err := reportTmpl.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("render report: %w", err)
	}
	return b.Bytes(), nil
}
