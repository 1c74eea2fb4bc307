package agentloop

import (
	"bytes"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"image"
	_ "image/jpeg" // the steps' screenshots
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
)

// reportName is the report's file in a run's directory.
const reportName = "report.html"

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

// reportData is what the report shows: how the run ended and its steps.
type reportData struct {
	State   State
	Outcome *Outcome
	System  string
	Start   time.Time
	Took    string
	// Rebuilt, when set, is when the report was made from the run's record
	// after the run (a run cut short by the server's end left none).
	Rebuilt        time.Time
	Steps          []reportStep
	MedianServerMs int64
	ModelMs        int64
}

// renderReport renders a self-contained HTML page of the run in dir: the
// task, how it ended, and every step with its screenshot, the model's
// reasoning, the actions and their results. Page text is escaped; the page
// runs no script.
func renderReport(dir string, data reportData, steps []*StepRecord) ([]byte, error) {
	var server []int64
	for _, s := range steps {
		rs := reportStep{StepRecord: s}
		if s.Screenshot != "" {
			if img, err := os.ReadFile(filepath.Join(dir, s.Screenshot)); err == nil {
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
		return nil, err
	}
	return b.Bytes(), nil
}

// errReportExists says a run already has its report: it is never replaced.
var errReportExists = errors.New("the run has its report already")

// placeReport writes page as dir's report.html and returns its path. The
// caller holds the run's lock (no one else writes its report meanwhile). The
// page goes to a side file first and is renamed into place: a server killed
// while writing leaves no half report, which would hide the run from
// RecoverReports. An existing report is kept (errReportExists).
func placeReport(dir string, page []byte) (string, error) {
	path := filepath.Join(dir, reportName)
	if _, err := os.Lstat(path); err == nil {
		return path, errReportExists
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	part := filepath.Join(dir, ".report.html.part")
	// What a writer killed earlier left; the lock says it is gone.
	if err := os.Remove(part); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := safefs.WriteFile(part, page); err != nil {
		return "", err
	}
	if err := os.Rename(part, path); err != nil {
		_ = os.Remove(part)
		return "", err
	}
	return path, nil
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
