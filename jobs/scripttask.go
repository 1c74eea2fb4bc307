package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/cdpmcp/cdpmcp/learned"
	"github.com/cdpmcp/cdpmcp/learned/replay"
)

// repairSteps bounds the model calls of the agent's redo of one step.
const repairSteps = 6

// ScriptResult is a script job's result: how the replay went and, when
// the agent redid steps, the updated script's path.
type ScriptResult struct {
	*replay.Report
	// Script is the updated script.json among the job's artifacts, written
	// when the agent redid a step; replay it next time.
	Script string `json:"script,omitempty"`
}

// checkScript checks a script job at submit: the script reads, the params
// are its own and its secrets are given. The secrets leave task.params and
// travel as the task's password (a JSON object of their values), held in
// memory only as a login job's password is; Submit makes them known to the
// submitting tenant's registry (secretValues).
func (q *Queue) checkScript(t *Task) error {
	if len(t.Script) == 0 {
		return inputErr("put the content of a script.json (record's stop or a run_browser_agent run writes one) in task.script", "a script job needs task.script")
	}
	s, err := learned.Parse(t.Script)
	if err != nil {
		return inputErr("give a script.json as cdpmcp wrote it, or fix the step it names", "task.script: %v", err)
	}
	if t.Password != "" {
		return inputErr("give the script's secrets in task.params by their names; they are held in memory only", "a script job takes no task.password")
	}
	if _, err := s.Bind(t.Params); err != nil {
		return inputErr("task.params maps the script's param names to values", "task.params: %v", err)
	}
	secrets := map[string]string{}
	params := map[string]string{}
	for name, v := range t.Params {
		if s.Params[name].Secret {
			secrets[name] = v
		} else {
			params[name] = v
		}
	}
	t.Params = params
	if len(t.Params) == 0 {
		t.Params = nil
	}
	if len(secrets) > 0 {
		b, err := json.Marshal(secrets)
		if err != nil {
			return err
		}
		t.Password = string(b)
	}
	return nil
}

// script replays task.script on the job's tab, from the job's url (the
// script's addresses move with it). A step that no longer matches is
// handed to the agent when the server has a model; the job's artifacts then
// hold the updated script.
func (t *taskRun) script(ctx context.Context) outcome {
	s, err := learned.Parse(t.job.Task.Script)
	if err != nil {
		return outcome{err: err}
	}
	given := maps.Clone(t.job.Task.Params)
	if given == nil {
		given = map[string]string{}
	}
	if t.secret != "" {
		var secrets map[string]string
		if err := json.Unmarshal([]byte(t.secret), &secrets); err != nil {
			return outcome{err: fmt.Errorf("the script's secrets: %w", err)}
		}
		maps.Copy(given, secrets)
	}
	values, err := s.Bind(given)
	if err != nil {
		return outcome{err: err}
	}
	if err := s.Rebase(t.job.URL); err != nil {
		return outcome{err: err}
	}
	env := tabEnv(t.page, t.q.cfg.ReadOnly, t.q.cfg.Origins) // the replay acts on the job's tab
	rep, err := replay.Run(ctx, env, s, values, t.replayOptions())
	if err != nil {
		return outcome{err: err}
	}
	res := ScriptResult{Report: rep}
	if rep.Changed {
		path, _, err := rep.Script.WriteNew(filepath.Join(t.rec.dir, learned.FileName), env.Secrets.Redact)
		if err != nil {
			return outcome{err: err, result: res}
		}
		res.Script = path
	}
	if !rep.OK {
		return outcome{err: replayFailure(rep.Failed), result: res}
	}
	summary := fmt.Sprintf("replayed %d steps on %s", rep.Steps, rep.FinalURL)
	if n := len(rep.Repaired); n > 0 {
		summary += fmt.Sprintf("; the agent redid %d step(s) (%d model calls): the updated script is %s", n, rep.ModelCalls, res.Script)
	}
	return outcome{summary: summary, result: res, finalURL: rep.FinalURL}
}

func (t *taskRun) replayOptions() replay.Options {
	opts := replay.Options{
		Progress: func(n, total int, intent string) {
			t.r.progress(0.1+0.85*float64(n-1)/float64(total), fmt.Sprintf("step %d/%d: %s", n, total, intent))
		},
		Trace: func(f map[string]any) { t.rec.Action("script-step", f) },
		// From the first step that acts, the job is not run again after
		// an interruption: it may have placed an order.
		BeforeEffects: func(ctx context.Context) error {
			_, err := t.r.update(ctx, []State{Running}, func(j *Job) { j.Effects = true })
			return err
		},
	}
	if t.q.cfg.Agent == nil {
		return opts
	}
	opts.Repair = func(ctx context.Context, task string) (*replay.Repaired, error) {
		t.rec.Action("agent-redo", map[string]any{"task": task})
		res, err := t.q.cfg.Agent.Run(ctx, t.page, task, AgentHooks{MaxSteps: repairSteps,
			Progress: func(f float64, s string) { t.rec.Action("agent-step", map[string]any{"summary": s, "progress": f}) }})
		if err != nil {
			return nil, err
		}
		return &replay.Repaired{Script: res.Script, OK: res.Success, Summary: res.Summary, ModelCalls: res.ModelCalls}, nil
	}
	return opts
}

// secretValues are the values a task holds in memory only: a login job's
// password, or a script job's secret params (checkScript put them in
// task.password as a JSON object).
func secretValues(t Task) []string {
	if t.Password == "" {
		return nil
	}
	if t.Type == TaskScript {
		var byName map[string]string
		if json.Unmarshal([]byte(t.Password), &byName) == nil {
			return slices.Collect(maps.Values(byName))
		}
	}
	return []string{t.Password}
}
