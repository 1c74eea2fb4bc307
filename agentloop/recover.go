package agentloop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// recordName is the run's record in its directory.
const recordName = "record.jsonl"

// ErrRunInProgress says a run's record is held by a process that is still
// running it (or that its lock could not be taken): it gets no report yet.
var ErrRunInProgress = errors.New("the run is still in progress")

// RecoverReports gives every run directory under parent that has a record
// but no report.html one, made from its record, and returns their paths. A
// run whose process ended before it did (SIGKILL, a crash, the machine
// going down) left its record and nothing more; its report says where it
// stopped ("interrupted"). Runs in progress, in this process or another, are
// left alone (their record is locked), and a report that exists is never
// replaced. A parent that does not exist has nothing to recover.
func RecoverReports(parent string) []string {
	entries, err := os.ReadDir(parent)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			slog.Warn("agent runs: cannot look for runs without a report", "dir", parent, "err", err)
		}
		return nil
	}
	var made []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if _, err := os.Lstat(filepath.Join(dir, reportName)); err == nil {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, recordName)); err != nil {
			continue
		}
		path, err := RecoverReport(dir)
		switch {
		case err == nil:
			slog.Info("agent run: a report made from its record", "report", path)
			made = append(made, path)
		case errors.Is(err, ErrRunInProgress), errors.Is(err, errReportExists):
		default:
			slog.Warn("agent run: no report could be made from its record", "dir", dir, "err", err)
		}
	}
	return made
}

// RecoverReport writes the report of the run in dir from its record.jsonl
// and returns its path: ErrRunInProgress while a process holds the record,
// an error wrapping errReportExists when the run has its report. A record
// without its end line is a run that was interrupted: the report says after
// which step, what the model had found by then, and that there was no final
// answer. A last line cut short (the process died writing it) is left out.
func RecoverReport(dir string) (string, error) {
	f, err := os.Open(filepath.Join(dir, recordName))
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := tryLock(f); err != nil {
		return "", fmt.Errorf("%w (%s is locked: %v)", ErrRunInProgress, dir, err)
	}
	// Under the lock: a report another process made meanwhile is seen here.
	if _, err := os.Lstat(filepath.Join(dir, reportName)); err == nil {
		return "", errReportExists
	}
	rec, err := readRecord(f)
	if err != nil {
		return "", err
	}
	data := reportData{State: rec.state(), Outcome: rec.outcome(), System: rec.start.System, Start: rec.start.Time,
		Took: rec.last().Sub(rec.start.Time).Round(time.Second).String(), Rebuilt: time.Now()}
	if rec.end != nil {
		data.State, data.Outcome = rec.end.State, rec.end.Outcome
	}
	page, err := renderReport(dir, data, rec.steps)
	if err != nil {
		return "", err
	}
	return placeReport(dir, page)
}

// runRecord is a record.jsonl as read back: its start line, its steps and,
// when the run ended, its end line.
type runRecord struct {
	start struct {
		Time     time.Time `json:"time"`
		Task     string    `json:"task"`
		AddInfos string    `json:"addInfos"`
		System   string    `json:"system"`
		Config   struct {
			MaxSteps int `json:"maxSteps"`
		} `json:"config"`
	}
	steps []*StepRecord
	end   *struct {
		Time    time.Time `json:"time"`
		Outcome *Outcome  `json:"outcome"`
		State   State     `json:"state"`
	}
}

// readRecord reads a record line by line. A line that does not parse (the
// last one, cut short by the process's death) is left out; a record with no
// start line is refused.
func readRecord(r io.Reader) (*runRecord, error) {
	rec := &runRecord{}
	started := false
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var kind struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(line, &kind) != nil {
				slog.Info("agent run record: a line cut short is left out", "bytes", len(line))
			} else {
				switch kind.Type {
				case "start":
					started = json.Unmarshal(line, &rec.start) == nil
				case "step":
					var s struct{ StepRecord }
					if json.Unmarshal(line, &s) == nil {
						rec.steps = append(rec.steps, &s.StepRecord)
					}
				case "end":
					if json.Unmarshal(line, &rec.end) != nil || rec.end.Outcome == nil {
						rec.end = nil
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if !started {
		return nil, errors.New("the record has no start line: nothing of the run to report")
	}
	return rec, nil
}

// state is the agent's state as the steps recorded left it.
func (rec *runRecord) state() State {
	s := State{MaxSteps: rec.start.Config.MaxSteps, Task: rec.start.Task, AddInfos: rec.start.AddInfos}
	for _, st := range rec.steps {
		s.StepNumber = st.Step
		if st.Brain != nil {
			s.update(*st.Brain)
		}
	}
	return s
}

// outcome is how an interrupted run stands: after which step it stopped,
// with what it had found.
func (rec *runRecord) outcome() *Outcome {
	out := &Outcome{Stop: StopInterrupted, Steps: len(rec.steps)}
	n, max := len(rec.steps), rec.start.Config.MaxSteps
	switch {
	case n == 0:
		out.Reason = fmt.Sprintf("the server stopped during step 1 of %d, before any step was recorded; no final answer", max)
	case rec.saidDone() || n >= max:
		out.Reason = fmt.Sprintf("the server stopped after step %d of %d, as the run was ending; no final answer was returned", n, max)
	default:
		out.Reason = fmt.Sprintf("the server stopped during step %d of %d (the record ends after step %d); no final answer", n+1, max, n)
	}
	if n > 0 {
		out.FinalURL = rec.steps[n-1].URL
	}
	st := rec.state()
	out.Result = "The run was interrupted: " + out.Reason + "." + st.bestSoFar()
	if said := rec.doneResult(); said != "" {
		out.Result += "\nThe model's last answer said done: " + said
	}
	return out
}

// saidDone says whether the last recorded step ran the done action.
func (rec *runRecord) saidDone() bool {
	if len(rec.steps) == 0 {
		return false
	}
	for _, a := range rec.steps[len(rec.steps)-1].Actions {
		if a.Name == "done" && a.Error == "" {
			return true
		}
	}
	return false
}

// doneResult is the result the last recorded step's done action gave, or "".
func (rec *runRecord) doneResult() string {
	if !rec.saidDone() {
		return ""
	}
	for _, a := range rec.steps[len(rec.steps)-1].Actions {
		var args struct {
			Result string `json:"result"`
		}
		if a.Name == "done" && json.Unmarshal(a.Args, &args) == nil {
			return args.Result
		}
	}
	return ""
}

// last is the latest time the record knows of: its end, or the end of its
// last step.
func (rec *runRecord) last() time.Time {
	if rec.end != nil {
		return rec.end.Time
	}
	if n := len(rec.steps); n > 0 {
		s := rec.steps[n-1]
		return s.Time.Add(time.Duration(s.ServerMs+s.ModelMs+s.ActionsMs) * time.Millisecond)
	}
	return rec.start.Time
}
