// Package replay runs a learned script without a model: each step finds its
// element again by its description (cdpclient/locate), acts through the
// action catalogue as a tool call would, and checks that it led where it
// led when it was learned. A step that finds no element, or several, or
// does not lead there is handed to the agent when the caller can (Repair),
// and the script is updated with what the agent did; otherwise the replay
// stops there and says which step, what it looked for and what it found.
// It never acts on a guess.
package replay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/learned"
)

// Defaults of Options.
const (
	defaultStepTimeout   = 30 * time.Second
	defaultExpectTimeout = 10 * time.Second
	defaultFindTimeout   = 5 * time.Second
)

// Options change how a replay runs; the zero value replays without a model.
type Options struct {
	// Repair, if set, hands a step that no longer matches to the agent: task
	// asks for that one step on the page as it is (never with a value a
	// field takes). It answers what the agent did. Nil ends the replay at
	// that step.
	Repair func(ctx context.Context, task string) (*Repaired, error)
	// Progress hears each step as it starts: its number (from 1), the
	// number of steps and what it does.
	Progress func(n, total int, intent string)
	// Trace records each step as it ran (for a job's trace).
	Trace func(fields map[string]any)
	// BeforeEffects is called once, before the first step that acts on the
	// page (anything but navigate, wait and extract); an error stops the
	// replay before that step.
	BeforeEffects func(ctx context.Context) error
	// StepTimeout bounds one step's action (default 30 s); FindTimeout how
	// long a step waits for its element to show (5 s); ExpectTimeout how
	// long for what it should lead to (10 s).
	StepTimeout, FindTimeout, ExpectTimeout time.Duration
}

// Repaired is what the agent did for one step.
type Repaired struct {
	// Script is what the agent's run learned (nil when it took no step a
	// script repeats).
	Script *learned.Script
	// OK says the agent finished the step; Summary is its answer.
	OK      bool
	Summary string
	// ModelCalls counts the model calls of the run.
	ModelCalls int
}

// Report is how a replay went.
type Report struct {
	OK bool `json:"ok"`
	// Steps is how many steps ran to their end, of Total.
	Steps int `json:"steps"`
	Total int `json:"total"`
	// Failed names the step that ended the replay.
	Failed *Failure `json:"failed,omitempty"`
	// Repaired lists the steps the agent redid.
	Repaired []Change `json:"repaired,omitempty"`
	// Extracted holds what the extract steps read.
	Extracted []Extracted `json:"extracted,omitempty"`
	// ModelCalls counts the model calls of the repairs (0 when every step
	// matched).
	ModelCalls int    `json:"modelCalls"`
	FinalURL   string `json:"finalUrl,omitempty"`
	Ms         int64  `json:"ms"`
	// Script is the script as it ran, with the agent's steps in place of
	// those it redid; Changed says there were some.
	Script  *learned.Script `json:"-"`
	Changed bool            `json:"changed"`
}

// Failure says which step ended a replay, what it looked for and what it
// found.
type Failure struct {
	Step   int    `json:"step"`
	Action string `json:"action"`
	Intent string `json:"intent"`
	// Looked is what the step looked for (an element, an outcome); Found
	// what there was.
	Looked string `json:"lookedFor"`
	Found  string `json:"found"`
	// Repair says why the agent did not fix it, when it was asked.
	Repair string `json:"repair,omitempty"`
	// Code is the outcome code of the step's action when it was the action
	// that failed (cdpclient's codes: NOT_FOUND, PERMISSION…), 0 when the
	// step found the page other than the script knew it.
	Code int `json:"code,omitempty"`
}

func (f *Failure) Error() string {
	msg := fmt.Sprintf("step %d (%s) failed: looked for %s; found %s", f.Step, f.Intent, f.Looked, f.Found)
	if f.Repair != "" {
		msg += "; the agent could not redo it: " + f.Repair
	}
	return msg
}

// Change is a step the agent redid.
type Change struct {
	Step int      `json:"step"`
	Was  string   `json:"was"`
	Now  []string `json:"now"`
	Why  string   `json:"why"`
}

// Extracted is what one extract step read.
type Extracted struct {
	Step int    `json:"step"`
	Text string `json:"text"`
}

// Run replays s with values v on env's current page. The error is non-nil
// only when the replay could not start or was cancelled; a step that failed
// is Report.Failed (OK false).
func Run(ctx context.Context, env *actions.Env, s *learned.Script, v learned.Values, opts Options) (*Report, error) {
	opts = opts.withDefaults()
	start := time.Now()
	r := &replayer{env: env, v: v, opts: opts, script: clone(s)}
	rep := &Report{Total: len(r.script.Steps), Script: r.script}
	err := r.run(ctx, rep)
	rep.Total, rep.Ms = len(r.script.Steps), time.Since(start).Milliseconds()
	if p, perr := env.Page(context.WithoutCancel(ctx), ""); perr == nil {
		rep.FinalURL = p.URL()
	}
	rep.OK = err == nil && rep.Failed == nil
	return rep, err
}

func (o Options) withDefaults() Options {
	if o.StepTimeout <= 0 {
		o.StepTimeout = defaultStepTimeout
	}
	if o.FindTimeout <= 0 {
		o.FindTimeout = defaultFindTimeout
	}
	if o.ExpectTimeout <= 0 {
		o.ExpectTimeout = defaultExpectTimeout
	}
	return o
}

type replayer struct {
	env    *actions.Env
	v      learned.Values
	opts   Options
	script *learned.Script
	acted  bool // BeforeEffects was called
}

func (r *replayer) run(ctx context.Context, rep *Report) error {
	for i := 0; i < len(r.script.Steps); i++ {
		st := r.script.Steps[i]
		if r.opts.Progress != nil {
			r.opts.Progress(i+1, len(r.script.Steps), st.Describe())
		}
		if err := r.beforeEffects(ctx, st); err != nil {
			return err
		}
		t0 := time.Now()
		text, miss, err := r.step(ctx, &st)
		if err != nil {
			return err
		}
		r.trace(i, st, miss, time.Since(t0))
		if miss == nil {
			r.extracted(rep, i, st, text)
			rep.Steps++
			continue
		}
		if r.opts.Repair == nil || !repairable(st, miss) {
			rep.Failed = miss.failure(i, st)
			return nil
		}
		now, why, err := r.repair(ctx, rep, i, st, miss)
		if err != nil {
			return err
		}
		if why != "" {
			f := miss.failure(i, st)
			f.Repair = why
			rep.Failed = f
			return nil
		}
		rep.Steps++
		i += now - 1
	}
	return nil
}

// beforeEffects calls BeforeEffects once, before the first step that acts.
func (r *replayer) beforeEffects(ctx context.Context, st learned.Step) error {
	if r.acted || r.opts.BeforeEffects == nil {
		return nil
	}
	switch st.Action {
	case learned.Navigate, learned.Wait, learned.Extract:
		return nil
	}
	r.acted = true
	return r.opts.BeforeEffects(ctx)
}

func (r *replayer) extracted(rep *Report, i int, st learned.Step, text string) {
	if st.Action == learned.Extract {
		rep.Extracted = append(rep.Extracted, Extracted{Step: i + 1, Text: text})
	}
}

func (r *replayer) trace(i int, st learned.Step, miss *mismatch, took time.Duration) {
	if r.opts.Trace == nil {
		return
	}
	f := map[string]any{"step": i + 1, "action": st.Action, "intent": st.Describe(), "ok": miss == nil, "ms": took.Milliseconds()}
	if miss != nil {
		f["lookedFor"], f["found"] = miss.looked, miss.found
	}
	r.opts.Trace(f)
}

// mismatch is a step that did not go as learned: what it looked for and
// what it found; acted says its action happened (the outcome differed).
type mismatch struct {
	looked, found string
	code          cdpclient.Code // the failed action's, if one failed
	acted         bool
	// hard is a failure no agent can fix (a navigation refused by the
	// origin rules, a browser gone).
	hard bool
}

func (m *mismatch) failure(i int, st learned.Step) *Failure {
	return &Failure{Step: i + 1, Action: st.Action, Intent: st.Describe(), Looked: m.looked, Found: m.found, Code: int(m.code)}
}

// repairable reports whether the agent may redo a step: never a navigation
// (the agent cannot make an address load otherwise) nor a hard failure.
func repairable(st learned.Step, m *mismatch) bool {
	return !m.hard && st.Action != learned.Navigate
}

// hardFailure reports whether an error is one a redo cannot fix.
func hardFailure(err error) bool {
	var ae *cdpclient.ArgError
	if errors.As(err, &ae) {
		return false
	}
	switch cdpclient.Classify(err).Code {
	case cdpclient.CodePermission, cdpclient.CodeBrowserGone, cdpclient.CodeBrowserUnavailable:
		return true
	}
	return false
}

// clone copies s deeply enough to change its steps and params.
func clone(s *learned.Script) *learned.Script {
	c := *s
	c.Steps = append([]learned.Step(nil), s.Steps...)
	c.Notes = append([]string(nil), s.Notes...)
	c.Params = map[string]learned.Param{}
	for k, p := range s.Params {
		c.Params[k] = p
	}
	return &c
}
