package actions

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/find"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
)

type formField struct {
	Ref      Ref    `json:"ref"`
	Selector string `json:"selector"`
	Value    string `json:"value" required:"true" desc:"text, date, number; true/false for a checkbox; option or radio value; file path"`
}

type fillFormArgs struct {
	Fields []formField `json:"fields" required:"true" desc:"in the order to fill"`
	Page   string      `json:"page"`
}

// FillForm sets many fields in one call.
var FillForm = define("fillForm", "Fill many form fields in one call (text, select, checkbox, radio, date, range, file), each as a person would. Stops at the first field it cannot set.",
	ClassAct, Hints{Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a fillFormArgs) (*Result, error) {
		if len(a.Fields) == 0 {
			return nil, argErr(`for example {"fields":[{"ref":"12","value":"Ada"},{"ref":"14","value":"true"}]}`, "argument %q needs at least one field", "fields")
		}
		fields := make([]input.FormField, len(a.Fields))
		for i, f := range a.Fields {
			fields[i] = input.FormField{Target: cdpclient.Target{Ref: string(f.Ref), Selector: f.Selector}, Value: f.Value}
		}
		return env.onPage(ctx, a.Page, "fillForm", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.FillForm(ctx, p, fields)
		})
	}).inGroup("forms")

type findArgs struct {
	Text string `json:"text" desc:"text to look for"`
	Role string `json:"role" desc:"e.g. button, link, textbox, checkbox, heading"`
	Name string `json:"name" desc:"the element's name, or part of it"`
	Box  bool   `json:"box" desc:"add each element's box x,y,w,h in viewport CSS px"`
	Page string `json:"page"`
}

// Find answers the matching lines of the page model, without a whole snapshot.
var Find = define("find", "Find elements by text, or by role and name, across frames: the matching snapshot lines (refs usable at once) under their headings, without the whole snapshot.",
	ClassRead, Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a findArgs) (*Result, error) {
		if a.Text == "" && a.Role == "" && a.Name == "" {
			return nil, argErr(`for example {"role":"button","name":"Save"} or {"text":"Total"}`, "pass text, or role and name")
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		out, err := find.Find(ctx, p, find.Query{Text: a.Text, Role: a.Role, Name: a.Name, Box: a.Box})
		if err != nil {
			return nil, err
		}
		return &Result{Text: out}, nil
	}).inGroup("forms")
