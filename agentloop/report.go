package agentloop

import (
	"bytes"
	"embed"
	"encoding/base64"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

//go:embed report.html.tmpl
var reportFS embed.FS

var reportTmpl = template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
	"json": func(a ActionRecord) string { return actionJSON(a) },
	"ms": func(ms int64) string {
		return (time.Duration(ms) * time.Millisecond).Round(time.Millisecond).String()
	},
}).ParseFS(reportFS, "report.html.tmpl"))

// reportStep is a step as the report shows it, its screenshot inlined.
type reportStep struct {
	*StepRecord
	Image template.URL
}

// writeReport writes a self-contained HTML page of the run: the task, how it
// ended, and every step with its screenshot, the model's reasoning, the
// actions and their results. Page text is escaped; the page runs no script.
func writeReport(path string, rc *recorder, out *Outcome) error {
	data := struct {
		State          State
		Outcome        *Outcome
		System         string
		Start          time.Time
		Took           string
		Steps          []reportStep
		MedianServerMs int64
		ModelMs        int64
	}{State: rc.r.state, Outcome: out, System: rc.r.system, Start: rc.start,
		Took: time.Since(rc.start).Round(time.Second).String()}
	var server []int64
	for _, s := range rc.steps {
		rs := reportStep{StepRecord: s}
		if s.Screenshot != "" {
			if img, err := os.ReadFile(filepath.Join(rc.dir, s.Screenshot)); err == nil {
				mime := "image/" + strings.TrimPrefix(filepath.Ext(s.Screenshot), ".")
				rs.Image = template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(img))
			}
		}
		data.Steps = append(data.Steps, rs)
		server = append(server, s.ServerMs)
		data.ModelMs += s.ModelMs
	}
	data.MedianServerMs = median(server)
	var b bytes.Buffer
	if err := reportTmpl.Execute(&b, data); err != nil {
		return err
	}
	return safefs.WriteFile(path, rc.r.env.Secrets.RedactBytes(b.Bytes()))
}

// median of a list of durations, 0 for none.
func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
