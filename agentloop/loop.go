package agentloop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/spans"
	"github.com/cdpmcp/cdpmcp/learned"
)

// observeTimeout bounds reading the page (element list, tabs, screenshot)
// at the start of a step: a page that does not answer ends the run.
const observeTimeout = 30 * time.Second

// runner is one run in progress.
type runner struct {
	env       *actions.Env
	model     Model
	cfg       Config
	system    string
	state     State
	clipboard string
	rec       *recorder
	prev      *prevStep
	failures  int
	lastErr   string
	pace      pace
}

// Run performs a task: observe, ask the model, act, until the model says done
// or a limit is reached. It returns an error only when the run could not start
// (no task, no run directory, no browser) or was cancelled (with the outcome
// so far); every other ending is an Outcome with Success false.
func Run(ctx context.Context, env *actions.Env, model Model, cfg Config, task Task) (*Outcome, error) {
	cfg = cfg.withDefaults()
	if strings.TrimSpace(task.Task) == "" {
		return nil, errors.New(`argument "task" is required: say what the browser should do`)
	}
	if _, err := env.Page(ctx, ""); err != nil {
		return nil, fmt.Errorf("the browser is not available: %w", err)
	}
	// The run's actions teach a script a replay repeats without a model.
	learn := learned.NewRecorder("agent", strings.TrimSpace(task.Task))
	learn.Redact = env.Secrets.Redact
	learning := *env
	learning.Learn = learn
	r := &runner{env: &learning, model: Redacted(model, env.Secrets), cfg: cfg,
		state: State{MaxSteps: cfg.MaxSteps, Task: strings.TrimSpace(task.Task), AddInfos: strings.TrimSpace(task.AddInfos)}}
	r.system = SystemPrompt(cfg.MaxActions, Functions(env.ReadOnly, cfg.AskHuman != nil))
	rec, err := newRecorder(cfg.RunDir, r)
	if err != nil {
		return nil, err
	}
	r.rec = rec
	out := r.loop(ctx)
	out.RunDir = rec.dir
	if ctx.Err() != nil {
		r.state.StopRequested = true
	}
	// The record is finished even when the caller gave up.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if p, err := env.Page(fctx, ""); err == nil {
		out.FinalURL = p.URL()
	}
	learn.SetSuccess(out.Success)
	out.Learned = learn.Script()
	if path, _, err := learn.Write(rec.dir); err != nil {
		slog.Warn("agent run: the learned script", "err", err)
	} else {
		out.Script = path
	}
	out.Report = rec.finish(out)
	if out.Stop == StopCancelled {
		return out, ctx.Err()
	}
	return out, nil
}

// loop runs steps until one ends the run.
func (r *runner) loop(ctx context.Context) *Outcome {
	for step := 1; step <= r.cfg.MaxSteps; step++ {
		r.state.StepNumber = step
		if out := r.step(ctx, step); out != nil {
			out.Steps = step
			return out
		}
		if r.failures >= r.cfg.MaxFailures {
			return r.stop(step, StopMaxFailures, fmt.Sprintf("%d failed steps in a row; the last: %s", r.failures, r.lastErr))
		}
	}
	return r.stop(r.cfg.MaxSteps, StopMaxSteps, fmt.Sprintf("the task was not done within %d steps", r.cfg.MaxSteps))
}

// stop ends a run that did not finish, with the best answer so far.
func (r *runner) stop(steps int, why, reason string) *Outcome {
	return &Outcome{Stop: why, Reason: reason, Steps: steps,
		Result: "The run stopped: " + reason + "." + r.state.bestSoFar()}
}

// step runs one step; a non-nil Outcome ends the run.
func (r *runner) step(ctx context.Context, n int) *Outcome {
	sr := &StepRecord{Step: n, Time: time.Now()}
	start := time.Now()
	if slog.Default().Enabled(ctx, slog.LevelDebug) {
		// Where the step's time went, at debug level (internal/spans).
		rec := spans.New()
		ctx = spans.With(ctx, rec)
		defer func() {
			slog.Debug("agent step", "step", n, "serverMs", sr.ServerMs, "modelMs", sr.ModelMs, "actionsMs", sr.ActionsMs, "phases", rec.String())
		}()
	}
	octx, cancel := context.WithTimeout(ctx, observeTimeout)
	defer cancel()
	var pic *shot
	// The step is recorded beside the next one: its screenshot, which only
	// the record may need, and the files are not waited for here.
	defer func() { r.rec.step(sr, pic) }()
	endObserve := spans.Start(ctx, "observe")
	obs, err := r.observeBy(octx, func(p *cdpclient.Page) (string, error) {
		// The picture is taken after the element list, under the step's
		// ctx: the record waits for it after the step.
		text, s, err := r.look(ctx, p)
		pic = s
		return text, err
	})
	endObserve()
	if err != nil {
		if ctx.Err() != nil {
			return r.stop(n, StopCancelled, "the caller cancelled the run")
		}
		return r.stop(n, StopBrowser, "the page could not be read: "+errorText(err))
	}
	sr.URL = obs.url
	endPrompt := spans.Start(ctx, "prompt")
	prompt := Prompt{System: r.system, User: userMessage(&r.state, time.Now(), obs, r.prev), MaxTokens: maxAnswerTokens}
	sr.User = prompt.User
	endPrompt()
	// What the message costs is for the record: estimated while the model
	// thinks, not before it is asked.
	counted := make(chan struct{})
	go func() {
		defer close(counted)
		sr.UserTokens, sr.SnapshotTokens = estimateTokens(prompt.User), estimateTokens(obs.elements)
	}()
	defer func() { <-counted }() // before the record takes sr
	if r.cfg.Vision {
		img := pic.wait().image()
		prompt.Image, sr.ImageSent = img, img != nil
	}
	sr.ServerMs = time.Since(start).Milliseconds()

	t := time.Now()
	endModel := spans.Start(ctx, "model")
	ans, err := r.model.Complete(ctx, prompt)
	endModel()
	r.pace.model.Store(int64(time.Since(t)))
	sr.ModelMs = time.Since(t).Milliseconds()
	if err != nil {
		sr.Error = err.Error()
		if ctx.Err() != nil {
			return r.stop(n, StopCancelled, "the caller cancelled the run")
		}
		return r.stop(n, StopModelError, err.Error())
	}
	sr.Answer, sr.Model = ans.Text, ans.Model
	t = time.Now()
	out, err := ParseOutput(ans.Text)
	if err != nil {
		r.fail(&prevStep{actions: []ActionRecord{{Error: err.Error() + ". Answer with one JSON object in the RESPONSE FORMAT and nothing else."}}}, err.Error())
		sr.Error = err.Error()
		sr.ServerMs += time.Since(t).Milliseconds()
		r.progress(n, "the answer could not be used")
		return nil
	}
	sr.Brain = &out.Brain
	r.state.update(out.Brain)
	sr.ServerMs += time.Since(t).Milliseconds()

	t = time.Now()
	endActions := spans.Start(ctx, "actions")
	done, prev, err := r.act(ctx, obs, out.Actions)
	endActions()
	sr.ActionsMs = time.Since(t).Milliseconds()
	sr.Actions = prev.actions
	if err != nil {
		return r.stop(n, StopCancelled, "the caller cancelled the run")
	}
	r.progress(n, progressText(out))
	if done != nil {
		return done
	}
	if msg := prev.failure(); msg != "" {
		r.fail(prev, msg)
	} else {
		r.prev, r.failures = prev, 0
	}
	return nil
}

// fail records a failed step for the next prompt and counts it.
func (r *runner) fail(prev *prevStep, msg string) {
	r.prev, r.lastErr = prev, msg
	r.failures++
}

// act runs a step's actions in order, at most MaxActions, stopping after one
// that fails or changes the page. done is set when the model said done.
func (r *runner) act(ctx context.Context, obs *observation, calls []Call) (done *Outcome, prev *prevStep, err error) {
	prev = &prevStep{}
	if len(calls) == 0 {
		prev.actions = []ActionRecord{{Error: "no action given: give at least one action, or done when the task is complete"}}
		return nil, prev, nil
	}
	if len(calls) > r.cfg.MaxActions {
		prev.addNote(fmt.Sprintf("Only the first %d actions ran (use maximum %d actions per sequence).", r.cfg.MaxActions, r.cfg.MaxActions))
		calls = calls[:r.cfg.MaxActions]
	}
	sc := &stepCtx{run: r, refs: obs.refs, tabs: obs.tabIDs}
	for i, c := range calls {
		rec, o, err := sc.execute(ctx, c)
		prev.actions = append(prev.actions, rec)
		if err != nil {
			return nil, prev, err
		}
		if o.done {
			return &Outcome{Stop: StopDone, Success: o.doneOK, Result: o.doneText}, prev, nil
		}
		left := len(calls) - i - 1
		if left > 0 && !o.failed && !o.breaks {
			nctx, cancel := context.WithTimeout(ctx, observeTimeout)
			o.breaks = sc.newElements(nctx)
			cancel()
		}
		if left > 0 && (o.failed || o.breaks) {
			why := "the page changed"
			if o.failed {
				why = "it failed"
			}
			prev.addNote(fmt.Sprintf("The %d action(s) after action %d did not run: %s. Look at the page again.", left, i+1, why))
			break
		}
	}
	return nil, prev, nil
}

// failure is the error of a step whose action failed, or "".
func (p *prevStep) failure() string {
	for _, a := range p.actions {
		if a.Error != "" {
			return a.Error
		}
	}
	return ""
}

func (r *runner) progress(step int, msg string) {
	if r.cfg.OnStep != nil {
		r.cfg.OnStep(StepInfo{Step: step, MaxSteps: r.cfg.MaxSteps, Message: fmt.Sprintf("step %d/%d: %s", step, r.cfg.MaxSteps, msg)})
	}
}

// progressText says in a few words what a step did.
func progressText(out *Output) string {
	if s := strings.TrimSpace(out.Brain.Summary); s != "" {
		return clip(s, 120)
	}
	var names []string
	for _, c := range out.Actions {
		names = append(names, c.Name)
	}
	if len(names) == 0 {
		return "no action"
	}
	return clip(strings.Join(names, ", "), 120)
}
