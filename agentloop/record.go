package agentloop

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/internal/statedir"
)

// StepRecord is one step as the run's record keeps it: the prompt, the
// model's answer, the actions and their results, and what it cost.
type StepRecord struct {
	Step int       `json:"step"`
	Time time.Time `json:"time"`
	URL  string    `json:"url"`
	// User is the user message; the system prompt is in the start record.
	User string `json:"user"`
	// Screenshot names the step's image in the run directory; ImageSent says
	// whether the model saw it (vision).
	Screenshot string `json:"screenshot,omitempty"`
	ImageSent  bool   `json:"imageSent,omitempty"`
	// Marks are the numbered boxes of the elements on a screenshot the
	// model did not see, in its pixels: the report draws them over it (one
	// sent to the model has them drawn in).
	Marks   []capture.Mark `json:"marks,omitempty"`
	Answer  string         `json:"answer,omitempty"`
	Model   string         `json:"model,omitempty"`
	Brain   *Brain         `json:"brain,omitempty"`
	Actions []ActionRecord `json:"actions,omitempty"`
	Error   string         `json:"error,omitempty"`
	// ServerMs is the server's own time (reading the page, the prompt, the
	// answer); ModelMs the model's; ActionsMs the actions' (page time included).
	ServerMs  int64 `json:"serverMs"`
	ModelMs   int64 `json:"modelMs"`
	ActionsMs int64 `json:"actionsMs"`
	// UserTokens and SnapshotTokens estimate the user message's and its
	// element list's cost (o200k tokens).
	UserTokens     int `json:"userTokens"`
	SnapshotTokens int `json:"snapshotTokens"`

	image *Image
}

// DefaultRunDir is where runs are recorded unless configured: runs in this
// user's state folder ($XDG_STATE_HOME/cdpmcp/runs, ~/.local/state/cdpmcp/runs).
func DefaultRunDir() string { return filepath.Join(statedir.Dir(), "runs") }

// recorder writes a run's record: record.jsonl (a start line, one line a
// step, an end line), a screenshot a step and, at the end, report.html (or
// RecoverReports does, for a run whose process died first). Files
// are readable by their owner only, and hold no secret the registry knows
// (prompts show pages, which can echo what was typed).
type recorder struct {
	dir   string
	f     *os.File
	r     *runner
	start time.Time
	steps []*StepRecord
	// written is closed once the latest step given to step is written.
	written chan struct{}
}

func newRecorder(parent string, r *runner) (*recorder, error) {
	if err := safefs.Dir(parent, "the agent's run folder (--agent-run-dir)"); err != nil {
		return nil, err
	}
	var id [3]byte
	_, _ = rand.Read(id[:])
	start := time.Now()
	dir := filepath.Join(parent, start.Format("20060102-150405")+"-"+hex.EncodeToString(id[:]))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the run directory (set --agent-run-dir): %w", err)
	}
	f, err := safefs.Create(filepath.Join(dir, "record.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("cannot write the run record: %w", err)
	}
	// The lock says the run is alive while its process is: RecoverReports
	// leaves a locked record alone, and reports on one whose process died.
	if err := tryLock(f); err != nil {
		slog.Warn("agent run record: lock", "dir", dir, "err", err)
	}
	rc := &recorder{dir: dir, f: f, r: r, start: start, written: make(chan struct{})}
	close(rc.written)
	rc.write(map[string]any{"type": "start", "time": start, "task": r.state.Task, "addInfos": r.state.AddInfos,
		"system": r.system, "config": map[string]any{"maxSteps": r.cfg.MaxSteps, "maxActions": r.cfg.MaxActions,
			"maxFailures": r.cfg.MaxFailures, "vision": r.cfg.Vision, "readOnly": r.env.ReadOnly}})
	return rc, nil
}

// step records a finished step and its screenshot (s may be nil), in the
// background and in order: the run goes on meanwhile. finish waits for them.
func (rc *recorder) step(sr *StepRecord, s *shot) {
	prev, written := rc.written, make(chan struct{})
	rc.written = written
	go func() {
		defer close(written)
		if pic := s.wait(); pic != nil {
			sr.image, sr.Marks = pic.img, pic.marks
		}
		<-prev
		rc.writeStep(sr)
	}()
}

func (rc *recorder) writeStep(sr *StepRecord) {
	if img := sr.image; img != nil {
		name := fmt.Sprintf("step-%03d.%s", sr.Step, strings.TrimPrefix(img.MIME, "image/"))
		if err := safefs.WriteFile(filepath.Join(rc.dir, name), img.Data); err != nil {
			slog.Warn("agent run record: screenshot", "err", err)
		} else {
			sr.Screenshot = name
		}
	}
	rc.steps = append(rc.steps, sr)
	rc.write(struct {
		Type string `json:"type"`
		*StepRecord
	}{"step", sr})
}

// finish writes the end of the record and the HTML report, and returns the
// report's path ("" if it could not be written). The record stays open, and
// so locked, until the report is written: RecoverReports never races it.
func (rc *recorder) finish(out *Outcome) string {
	<-rc.written
	rc.write(map[string]any{"type": "end", "time": time.Now(), "outcome": out, "state": rc.r.state})
	defer func() {
		if err := rc.f.Close(); err != nil {
			slog.Warn("agent run record", "err", err)
		}
	}()
	page, err := renderReport(rc.dir, reportData{State: rc.r.state, Outcome: out, System: rc.r.system, Start: rc.start,
		Took: time.Since(rc.start).Round(time.Second).String()}, rc.steps)
	if err != nil {
		slog.Warn("agent run report", "err", err)
		return ""
	}
	path, err := placeReport(rc.dir, rc.r.env.Secrets.RedactBytes(page))
	if err != nil {
		slog.Warn("agent run report", "err", err)
		return ""
	}
	return path
}

// write appends v as a line, every secret the registry knows redacted.
func (rc *recorder) write(v any) {
	b, err := json.Marshal(v)
	if err == nil {
		b = rc.r.env.Secrets.RedactBytes(b)
		_, err = rc.f.Write(append(b, '\n'))
	}
	if err != nil {
		slog.Warn("agent run record", "dir", rc.dir, "err", err)
	}
}

// estimateTokens approximates a text's cost in o200k tokens.
func estimateTokens(s string) int { return snapshot.Estimate(s) }
