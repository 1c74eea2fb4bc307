package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
)

const (
	// actionTimeout bounds an action that sets no deadline of its own.
	actionTimeout = 30 * time.Second
	// maxResultText caps what one action's text result adds to the next prompt.
	maxResultText = 12000
)

// ActionRecord is one action of a step as it ran: what the model asked, the
// catalogue action it became, and what the next prompt says about it.
type ActionRecord struct {
	// Name and Args are as the model gave them.
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
	// Runs and RunArgs are the catalogue action and its arguments.
	Runs    string         `json:"runs,omitempty"`
	RunArgs map[string]any `json:"runArgs,omitempty"`
	// Result is what the action gave (feedback JSON or text), Error why it
	// failed; the next prompt shows them.
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
	Ms     int64  `json:"ms"`
}

// stepError is a call the model must fix (an unknown action, a missing
// argument, an index not in the list). It counts as a failure.
type stepError struct{ msg string }

func (e *stepError) Error() string { return e.msg }

// stepCtx is what the functions need while a step's actions run.
type stepCtx struct {
	run  *runner
	refs map[int]bool // element indexes in this step's list
	tabs []string     // page ids, in Available tabs order
}

// ref reads an element index argument and checks that the list has it.
func (s *stepCtx) ref(a fargs, key string, required bool) (string, error) {
	raw, ok := a[key]
	if !ok || string(raw) == "null" {
		if required {
			return "", &stepError{fmt.Sprintf("argument %q is required: an element index from the list", key)}
		}
		return "", nil
	}
	n := a.int(key)
	if !s.refs[n] {
		return "", &stepError{fmt.Sprintf("element index %s is not in the Interactive elements list; use an index shown there", strings.Trim(string(raw), `"`))}
	}
	return strconv.Itoa(n), nil
}

// tab turns a tab index into a page id.
func (s *stepCtx) tab(a fargs) (string, error) {
	if err := a.need("index"); err != nil {
		return "", err
	}
	i := a.int("index")
	if i < 0 || i >= len(s.tabs) {
		return "", &stepError{fmt.Sprintf("tab index %d is not in Available tabs (0 to %d)", i, len(s.tabs)-1)}
	}
	return s.tabs[i], nil
}

// outcome is what running one call means for the step.
type outcome struct {
	failed   bool // the action did not happen
	breaks   bool // the page changed: the rest of the sequence must not run
	done     bool // the model said done
	doneOK   bool
	doneText string
}

// execute runs one call. A returned error means the run must stop (the caller
// gave up); every other problem is recorded for the model.
func (s *stepCtx) execute(ctx context.Context, c Call) (ActionRecord, outcome, error) {
	start := time.Now()
	rec := ActionRecord{Name: c.Name, Args: c.Args}
	o, err := s.call(ctx, c, &rec)
	rec.Ms = time.Since(start).Milliseconds()
	if err != nil && ctx.Err() != nil {
		return rec, o, ctx.Err()
	}
	if err != nil {
		rec.Error, o.failed = errorText(err), true
	}
	return rec, o, nil
}

func (s *stepCtx) call(ctx context.Context, c Call, rec *ActionRecord) (outcome, error) {
	f, implied := lookup(c.Name)
	readOnly, human := s.run.env.ReadOnly, s.run.cfg.AskHuman != nil
	if f == nil || (f.human && !human) {
		return outcome{}, &stepError{fmt.Sprintf("unknown action %q; use one of: %s", c.Name, strings.Join(names(readOnly, human), ", "))}
	}
	if !f.offered(readOnly, human) {
		return outcome{}, &stepError{fmt.Sprintf("%s is not allowed: this browser is in read-only mode (reading and navigating only)", f.name)}
	}
	a := fargs{}
	if len(c.Args) > 0 && string(c.Args) != "null" {
		if err := json.Unmarshal(c.Args, &a); err != nil {
			a = wrapArg(f, c.Args)
			if a == nil {
				return outcome{}, &stepError{fmt.Sprintf("the arguments of %s must be an object like {%s}", f.name, f.paramList())}
			}
		}
	}
	for k, v := range implied {
		if _, ok := a[k]; !ok {
			a[k] = v
		}
	}
	runArgs, err := f.args(s, a)
	if err != nil {
		return outcome{}, err
	}
	if f.name == "done" {
		ok := true
		if _, given := a["success"]; given {
			ok = a.bool("success")
		}
		text := a.str("result")
		if text == "" {
			text = a.str("text") // browser-use's name for it
		}
		rec.Result = "done"
		return outcome{done: true, doneOK: ok, doneText: text}, nil
	}
	if f.human {
		said, err := s.run.cfg.AskHuman(ctx, a.str("reason"))
		if err != nil {
			return outcome{}, err
		}
		rec.Result = "the person handed the tab back"
		if said != "" {
			rec.Result += " and said: " + said
		}
		return outcome{breaks: true}, nil
	}
	if f.base == nil {
		rec.Result = "ok"
		return outcome{}, nil
	}
	rec.Runs, rec.RunArgs = f.base.Name, runArgs
	raw, err := json.Marshal(runArgs)
	if err != nil {
		return outcome{}, err
	}
	actx := ctx
	if !f.base.OwnTimeout {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, actionTimeout)
		defer cancel()
	}
	res, err := f.base.Run(actx, s.run.env, raw)
	if err != nil {
		if f.name == "paste_from_clipboard" && cdpclient.Classify(err).Code == cdpclient.CodeNotFound {
			return outcome{}, &stepError{"no field has the focus: click the field first, or pass element_index"}
		}
		return outcome{}, err
	}
	if fb := res.Feedback; fb != nil && !fb.OK {
		return outcome{}, &stepError{feedbackError(fb)}
	}
	rec.Result = resultText(res, f.breaks)
	o := outcome{breaks: f.breaks}
	if fb := res.Feedback; fb != nil {
		o.breaks = o.breaks || fb.Dialog != nil || len(fb.Opened) > 0 ||
			(fb.Delta != nil && (fb.Delta.URL != "" || len(fb.Delta.Added) > 0))
	}
	return o, nil
}

// newElements reports whether the page now lists elements the step's list did
// not have: content that appeared without being added to the DOM (a menu
// shown by CSS) is new to the model too. Refs are never reused, so a ref not
// seen before is a new element.
func (s *stepCtx) newElements(ctx context.Context) bool {
	p, err := s.run.env.Page(ctx, "")
	if err != nil {
		return false
	}
	text, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{})
	if err != nil {
		return errors.As(err, new(*cdpclient.DialogOpenError))
	}
	for n := range refsOf(text) {
		if !s.refs[n] {
			return true
		}
	}
	return false
}

// wrapArg reads a bare value given for a one-argument function, e.g.
// {"go_to_url": "https://example.com"}.
func wrapArg(f *function, raw json.RawMessage) fargs {
	if len(f.params) == 0 {
		return fargs{}
	}
	if raw[0] == '{' || raw[0] == '[' && f.params[0].typ != "array of strings" {
		return nil
	}
	return fargs{f.params[0].name: raw}
}

func (f *function) paramList() string {
	var parts []string
	for _, p := range f.params {
		parts = append(parts, strconv.Quote(p.name)+": …")
	}
	return strings.Join(parts, ", ")
}

func names(readOnly, human bool) []string {
	var out []string
	for _, f := range functions {
		if f.offered(readOnly, human) {
			out = append(out, f.name)
		}
	}
	return out
}
