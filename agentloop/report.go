package agentloop

import (
	"bytes"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"image"
	_ "image/jpeg" // the steps' screenshots
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
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

// reportStep is a step as the report shows it, its screenshot inlined and
// the marks placed over it.
type reportStep struct {
	*StepRecord
	Image template.URL
	Boxes []reportMark
}

// reportMark is a mark as the report draws it: a box placed in percent of
// the picture, so it follows the picture's size on the page.
type reportMark struct {
	Ref   int
	Style template.CSS
	Color template.CSS
}

// reportMarks places marks over a picture of w×h pixels.
func reportMarks(marks []capture.Mark, w, h int) []reportMark {
	if w <= 0 || h <= 0 {
		return nil
	}
	pct := func(v, of int) float64 { return 100 * float64(v) / float64(of) }
	var out []reportMark
	for _, m := range marks {
		out = append(out, reportMark{Ref: m.Ref,
			Style: template.CSS(fmt.Sprintf("left:%.2f%%;top:%.2f%%;width:%.2f%%;height:%.2f%%;border-color:%s",
				pct(m.X, w), pct(m.Y, h), pct(m.W, w), pct(m.H, h), m.Color)),
			Color: template.CSS("background:" + m.Color)})
	}
	return out
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
				if cfg, _, err := image.DecodeConfig(bytes.NewReader(img)); err == nil {
					rs.Boxes = reportMarks(s.Marks, cfg.Width, cfg.Height)
				}
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
