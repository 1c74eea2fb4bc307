package actions

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
	"github.com/cdpmcp/cdpmcp/learned"
)

// What a session's calls teach its learned script (learned.Recorder): each
// call a script can repeat, once it happened, becomes a step with its
// element described as a person finds it again (taken before the call, which
// may remove it), its values as params (a secret field's as a secret param)
// and what it led to. Calls that change the page in ways a script does not
// repeat (a drag, a dialog answered, another tab) are noted instead.

// learnedActions maps the catalogue's actions a script repeats to its steps.
var learnedActions = map[string]string{
	"navigate": learned.Navigate, "reload": learned.Navigate, "goBack": learned.Navigate, "goForward": learned.Navigate,
	"newPage": learned.Navigate,
	"click":   learned.Click, "type": learned.Type, "fill": learned.Fill, "fillForm": learned.Fill,
	"selectOption": learned.Select, "pressKey": learned.Press, "uploadFile": learned.Upload,
	"waitFor": learned.Wait, "getContent": learned.Extract,
}

// unlearned are the actions that change the page but are not repeated.
var unlearned = map[string]bool{"drag": true, "mouse": true, "handleDialog": true, "switchPage": true, "closePage": true}

// learnArgs are the arguments of every learned action.
type learnArgs struct {
	targetArgs
	URL        string      `json:"url"`
	Text       *string     `json:"text"`
	Value      *string     `json:"value"`
	Values     []string    `json:"values"`
	Key        string      `json:"key"`
	Paths      []string    `json:"paths"`
	Clear      bool        `json:"clear"`
	Submit     bool        `json:"submit"`
	State      string      `json:"state"`
	Format     string      `json:"format"`
	ClickCount int         `json:"clickCount"`
	Modifiers  []string    `json:"modifiers"`
	Button     string      `json:"button"`
	Fields     []formField `json:"fields"`
	Page       string      `json:"page"`
}

// learner is the script a call's steps go into: the caller's own (an agent
// run's), else its browser context's recording's; nil when none learns.
func (e *Env) learner(ctx context.Context) *learned.Recorder {
	if e.Learn != nil {
		return e.Learn
	}
	if !recordings.any() {
		return nil
	}
	bc, err := e.Context(ctx)
	if err != nil {
		return nil
	}
	if r := recordings.of(bc); r != nil {
		return r.script
	}
	return nil
}

// exec runs the action, teaching the caller's script what it did.
func (a *Action) exec(ctx context.Context, env *Env, raw json.RawMessage) (*Result, error) {
	kind, learnable := learnedActions[a.Name]
	if !learnable && !unlearned[a.Name] {
		return a.run(ctx, env, raw)
	}
	l := env.learner(ctx)
	if l == nil {
		return a.run(ctx, env, raw)
	}
	if !learnable {
		res, err := a.run(ctx, env, raw)
		if happened(res, err) {
			l.Note("%s was not learned: a script does not repeat it", a.Name)
		}
		return res, err
	}
	var args learnArgs
	if json.Unmarshal(raw, &args) != nil {
		return a.run(ctx, env, raw)
	}
	p, err := env.Page(ctx, args.Page)
	if err != nil {
		return a.run(ctx, env, raw)
	}
	before := p.URL()
	targets, described := describeTargets(ctx, p, a.Name, args)
	res, err := a.run(ctx, env, raw)
	if !happened(res, err) {
		return res, err
	}
	if !described || (len(targets) == 0 && needsTarget(kind, a.Name)) {
		l.Note("%s was not learned: its element could not be described", a.Name)
		return res, err
	}
	if a.Name == "newPage" {
		if np, err := env.Page(ctx, ""); err == nil {
			p = np
		}
	}
	if l.Len() == 0 && kind != learned.Navigate && webURL(before) {
		l.Add(learned.Step{Action: learned.Navigate, URL: before})
	}
	for _, st := range learnSteps(l, a.Name, kind, args, targets, p.URL()) {
		if st.Action == learned.Navigate && !webURL(st.URL) {
			continue
		}
		st.Expect = expectAfter(ctx, p, st, before, res)
		l.Add(st)
	}
	return res, err
}

// happened reports whether an action took place in full.
func happened(res *Result, err error) bool {
	return err == nil && res != nil && !res.Failed() && (res.Feedback == nil || res.Feedback.Incomplete == "")
}

func webURL(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "file://")
}

// describeTargets describes the call's elements (a form's fields, else its
// target); described is false when one could not be.
func describeTargets(ctx context.Context, p *cdpclient.Page, name string, a learnArgs) ([]*locate.Described, bool) {
	var ts []cdpclient.Target
	switch {
	case name == "fillForm":
		for _, f := range a.Fields {
			ts = append(ts, cdpclient.Target{Ref: string(f.Ref), Selector: f.Selector})
		}
	case name == "getContent":
	case !a.target().IsZero():
		ts = append(ts, a.target())
	}
	out := make([]*locate.Described, len(ts))
	for i, t := range ts {
		d, err := locate.Describe(ctx, p, t)
		if err != nil || (d.Role == "" && d.Tag == "") {
			return nil, false
		}
		out[i] = &d
	}
	return out, true
}

// learnSteps makes the steps of a call that happened.
func learnSteps(l *learned.Recorder, name, kind string, a learnArgs, ts []*locate.Described, now string) []learned.Step {
	var t *locate.Described
	if len(ts) > 0 {
		t = ts[0]
	}
	target := func() *locate.Description {
		if t == nil {
			return nil
		}
		return &t.Description
	}
	secret := t != nil && t.Secret
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	switch kind {
	case learned.Navigate:
		u := a.URL
		if name != "navigate" && name != "newPage" || u == "" {
			u = now
		}
		return []learned.Step{{Action: learned.Navigate, URL: u}}
	case learned.Click:
		if t != nil && checkable(t.Role) && a.ClickCount <= 1 && len(a.Modifiers) == 0 && a.Button == "" {
			// A check box clicked is a check box set: a replay sets it to
			// the state the session left it in, whatever it was before.
			v := "true"
			if t.Role != "radio" && t.Checked {
				v = "false"
			}
			return []learned.Step{{Action: learned.Fill, Target: target(), Value: v}}
		}
		return []learned.Step{{Action: learned.Click, Target: target(), ClickCount: a.ClickCount, Modifiers: a.Modifiers}}
	case learned.Type:
		return []learned.Step{{Action: learned.Type, Target: target(), Value: l.Value(target(), str(a.Text), secret), Clear: a.Clear, Submit: a.Submit}}
	case learned.Select:
		vals := a.Values
		if len(vals) == 1 {
			vals = []string{l.Value(target(), vals[0], false)}
		}
		return []learned.Step{{Action: learned.Select, Target: target(), Values: vals}}
	case learned.Press:
		return []learned.Step{{Action: learned.Press, Key: a.Key, Target: target()}}
	case learned.Upload:
		return []learned.Step{{Action: learned.Upload, Target: target(), Files: a.Paths}}
	case learned.Wait:
		return []learned.Step{{Action: learned.Wait, Text: str(a.Text), Target: target(), State: a.State}}
	case learned.Extract:
		return []learned.Step{{Action: learned.Extract, Selector: a.Selector, Format: a.Format}}
	case learned.Fill:
		if name == "fill" {
			return []learned.Step{{Action: learned.Fill, Target: target(), Value: l.Value(target(), str(a.Value), secret)}}
		}
		var out []learned.Step
		for i, f := range a.Fields {
			v := f.Value
			if !checkable(ts[i].Role) {
				v = l.Value(&ts[i].Description, v, ts[i].Secret)
			}
			out = append(out, learned.Step{Action: learned.Fill, Target: &ts[i].Description, Value: v})
		}
		return out
	}
	return nil
}

// needsTarget reports whether a step of kind, learned from action name,
// acts on an element (typing into the focused field names none).
func needsTarget(kind, name string) bool {
	switch kind {
	case learned.Click, learned.Type, learned.Select, learned.Upload:
		return true
	case learned.Fill:
		return name == "fill"
	}
	return false
}

func checkable(role string) bool { return role == "checkbox" || role == "radio" || role == "switch" }
