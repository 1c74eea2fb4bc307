package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagefacts"
	"github.com/cdpmcp/cdpmcp/jobs/extract"
)

// taskRun is one run of a job's task on its tab.
type taskRun struct {
	q      *Queue
	r      *run
	job    *Job
	page   *cdpclient.Page
	rec    *recorder
	secret string
	// loadWait bounds waiting for a page's load where the task can go on
	// without it (extract reads a page that never finishes loading).
	loadWait time.Duration
}

func (t *taskRun) run(ctx context.Context) outcome {
	if t.q.cfg.ReadOnly && t.job.Task.Type != TaskNavigate && t.job.Task.Type != TaskExtract {
		// Taken by a process that does not run read-only (another serve of
		// the fleet, cdpmcp jobs submit): this one acts on no page.
		return outcome{err: &cdpclient.Error{Code: cdpclient.CodePermission, Msg: fmt.Sprintf("a %s job acts on the page and this process runs with --read-only: only navigate and extract jobs run here", t.job.Task.Type),
			Hint: "run it on a worker or server without --read-only"}}
	}
	switch t.job.Task.Type {
	case TaskNavigate:
		return t.navigate(ctx)
	case TaskExtract:
		return t.extract(ctx)
	case TaskMessage:
		return t.message(ctx)
	case TaskLogin:
		return t.login(ctx)
	case TaskCustom:
		return t.custom(ctx)
	case TaskScript:
		return t.script(ctx)
	}
	return outcome{err: fmt.Errorf("unknown task type %q", t.job.Task.Type)}
}

// open loads the job's URL, following redirects, and waits for the load event.
func (t *taskRun) open(ctx context.Context) error {
	t.r.progress(0.2, "loading "+t.job.URL)
	start := time.Now()
	err := loaded(t.page.Navigate(ctx, t.job.URL, cdpclient.WaitLoad))
	fields := map[string]any{"url": t.job.URL, "ok": err == nil, "ms": time.Since(start).Milliseconds(), "finalUrl": t.page.URL()}
	if err != nil {
		fields["error"] = err.Error()
	}
	t.rec.Action("navigate", fields)
	if err == nil {
		t.r.progress(0.5, "loaded "+t.page.URL())
	}
	return err
}

func (t *taskRun) loadedSummary(ctx context.Context) string {
	s := fmt.Sprintf("loaded %s", t.page.URL())
	if title := t.page.DocumentTitle(ctx); title != "" {
		s += fmt.Sprintf(" (%q)", title)
	}
	if st := t.rec.DocumentStatus(); st >= 400 {
		s += fmt.Sprintf(", but the server answered HTTP %d", st)
	}
	return s
}

func (t *taskRun) navigate(ctx context.Context) outcome {
	if err := t.open(ctx); err != nil {
		return outcome{err: err}
	}
	if err := t.pastCaptcha(ctx); err != nil {
		return outcome{err: err}
	}
	return outcome{summary: t.loadedSummary(ctx), finalURL: t.page.URL()}
}

// ExtractResult is an extract job's result (and extract_structured's, without
// Texts): the texts of task.selectors and the filled task.extract schema.
type ExtractResult struct {
	Texts map[string][]string `json:"texts,omitempty"`
	*extract.Result
}

func (t *taskRun) extract(ctx context.Context) outcome {
	var notes []string
	lctx, cancel := context.WithTimeout(ctx, t.loadWait)
	err := t.open(lctx)
	cancel()
	if err := readAnyway(ctx, err); err != nil {
		return outcome{err: t.notArrived(ctx, err)}
	}
	if err != nil {
		notes = append(notes, stillLoadingNote)
	}
	if err := t.pastCaptcha(ctx); err != nil {
		return outcome{err: err}
	}
	// After the CAPTCHA: a challenge page answers 403 until it is passed.
	if err := errorPage(t.page.URL(), t.rec.DocumentStatus()); err != nil {
		return outcome{err: err}
	}
	t.r.progress(0.6, "reading the page")
	res, err := readStructured(ctx, t.page, t.job.Task.Selectors, t.job.Task.Extract, t.q.cfg.Model)
	if err != nil {
		return outcome{err: err}
	}
	res.Notes = append(notes, res.Notes...)
	t.rec.Action("extract", map[string]any{"ok": true, "fields": len(res.Sources), "missing": res.Missing})
	summary := fmt.Sprintf("extracted from %s", t.page.URL())
	if len(t.job.Task.Extract) > 0 {
		summary += fmt.Sprintf(": %d field(s) found, %d not on the page", len(res.Sources), len(res.Missing))
	}
	return outcome{summary: summary, result: res, finalURL: t.page.URL()}
}

// notArrived words the timeout of an extract job whose page did not arrive
// within loadWait, which is half of the job's time (run.go).
func (t *taskRun) notArrived(ctx context.Context, err error) error {
	var ce *cdpclient.Error
	if ctx.Err() != nil || !errors.As(err, &ce) || ce.Code != cdpclient.CodeTimeout {
		return err
	}
	return &cdpclient.Error{Code: cdpclient.CodeTimeout, Err: err, Hint: ce.Hint,
		Msg: fmt.Sprintf("no page arrived from %s within %s, half of the job's time (the other half is kept to read a page that arrives but does not finish loading); nothing was read", t.job.URL, t.loadWait)}
}

// readStructured reads the selectors' texts and fills the schema (either may
// be empty) from the page, asking model (if not nil) for what the rules miss.
func readStructured(ctx context.Context, page *cdpclient.Page, selectors []string, schema json.RawMessage, model agentloop.Model) (*ExtractResult, error) {
	var (
		sch     *extract.Schema
		queries []pagefacts.Query
		err     error
	)
	if len(schema) > 0 {
		if sch, err = extract.ParseSchema(schema); err != nil {
			return nil, err
		}
		queries = extract.Queries(sch)
	}
	for i, s := range selectors {
		queries = append(queries, pagefacts.Query{Key: fmt.Sprintf("\x00sel%d", i), Selector: s})
	}
	facts, err := pagefacts.Read(ctx, page, queries, pagefacts.Options{Structure: sch != nil})
	if err != nil {
		return nil, err
	}
	res := &ExtractResult{Result: &extract.Result{Data: map[string]any{}}}
	if sch != nil {
		res.Result = extract.Fill(sch, schema, facts)
		if model != nil {
			askModel(ctx, model, page, sch, schema, res.Result)
		}
	} else {
		res.Notes = append(res.Notes, facts.Errors...)
	}
	if len(selectors) > 0 {
		res.Texts = map[string][]string{}
		for i, s := range selectors {
			texts := []string{}
			for _, v := range facts.Selected[fmt.Sprintf("\x00sel%d", i)] {
				if str, ok := v.(string); ok {
					texts = append(texts, str)
				}
			}
			res.Texts[s] = texts
			if len(texts) == 0 {
				res.Notes = append(res.Notes, fmt.Sprintf("selector %q matched nothing", s))
			}
		}
	}
	return res, nil
}

// act runs one of the catalogue's actions on the job's tab by selector, as a
// tool call runs it (one road: the same checks, the same feedback), with its
// feedback recorded in the trace and returned; an action that did not
// happen is an error.
func (t *taskRun) act(ctx context.Context, a *actions.Action, selector string, args map[string]any) (*feedback.Feedback, error) {
	if args == nil {
		args = map[string]any{}
	}
	args["selector"], args["page"] = selector, t.page.ID
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	res, err := a.Run(ctx, tabEnv(t.page, t.q.cfg.ReadOnly, t.q.cfg.Origins), raw)
	if err == nil && (res == nil || res.Feedback == nil) {
		err = fmt.Errorf("%s answered no feedback", a.Name)
	}
	if err != nil {
		t.rec.Action(a.Name, map[string]any{"selector": selector, "ok": false, "error": err.Error()})
		return nil, err
	}
	fb := res.Feedback
	t.rec.Action(a.Name, map[string]any{"selector": selector, "ok": fb.OK, "feedback": json.RawMessage(fb.JSON())})
	if !fb.OK {
		// The action's own code: a selector that matches nothing is the
		// submitter's to fix (NOT_FOUND), not cdpmcp's failure.
		return fb, &cdpclient.Error{Code: cdpclient.Code(fb.Code), Msg: fmt.Sprintf("%s %s failed: %s", a.Name, selector, fb.Msg), Hint: fb.Hint, Ref: fb.Ref}
	}
	return fb, nil
}

// custom runs task.instructions with the agent on the job's tab.
func (t *taskRun) custom(ctx context.Context) outcome {
	if t.q.cfg.Agent == nil {
		return outcome{err: errors.New("custom jobs need a model: start cdpmcp with --llm-base-url")}
	}
	if err := t.open(ctx); err != nil {
		return outcome{err: err}
	}
	hooks := AgentHooks{Progress: func(f float64, s string) {
		t.r.progress(0.5+f*0.45, s)
		t.rec.Action("agent-step", map[string]any{"summary": s, "progress": f})
	}, RunDir: t.rec.dir}
	if t.job.Handoff {
		hooks.AskHuman = t.waitForHuman
	}
	for {
		res, err := t.q.cfg.Agent.Run(ctx, t.page, t.job.Task.Instructions, hooks)
		var nh *NeedsHumanError
		if errors.As(err, &nh) {
			if _, err := t.waitForHuman(ctx, nh.Reason); err != nil {
				return outcome{err: err}
			}
			continue // the agent takes over again from where the person left it
		}
		if err != nil {
			return outcome{err: err}
		}
		if !res.Success {
			return outcome{err: fmt.Errorf("the agent did not finish: %s", res.Summary), result: res.Result}
		}
		return outcome{summary: res.Summary, result: res.Result, finalURL: t.page.URL()}
	}
}
