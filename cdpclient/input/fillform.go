package input

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp"
)

// maxFormFields bounds the fields of one FillForm call.
const maxFormFields = 50

// FormField is one field FillForm sets: an element and its value. For a
// checkbox the value is true or false; for a radio, true or the value (or
// label) of the radio of its group to pick; for a <select>, an option's
// value or label; for a file input, a file's path; otherwise the text, date
// (2025-01-31), number or range value.
type FormField struct {
	Target cdpclient.Target
	Value  string
}

// FillForm sets many fields in one action, each as a person would (typed text
// with input and change events, clicks for checkboxes and radios, options
// picked, files given), and reports what happened. It stops at the first field
// it cannot set: the fields before it are set (ok, with the failure among the
// errors), or, if it was the first, nothing happened.
func FillForm(ctx context.Context, page *cdpclient.Page, fields []FormField) (*feedback.Feedback, error) {
	switch {
	case len(fields) == 0:
		return nil, cdpclient.ArgErrorf(`give fields, e.g. {"fields":[{"ref":"12","value":"Ada"},{"ref":"14","value":"true"}]}`, "no fields given")
	case len(fields) > maxFormFields:
		return nil, cdpclient.ArgErrorf(fmt.Sprintf("fill at most %d fields per call", maxFormFields), "%d fields is too many", len(fields))
	}
	for i, f := range fields {
		if f.Target.IsZero() {
			return nil, cdpclient.ArgErrorf("give each field a ref (from snapshot) or a selector", "field %d names no element", i+1)
		}
	}
	p := on(page)
	return p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{LateMs: cdpclient.LateFrame}), func(ctx context.Context, _ *cdp.Client) error {
		for i, f := range fields {
			if err := p.fillField(ctx, f); err != nil {
				return fieldFailed(i, len(fields), f.Target, err)
			}
		}
		cdpclient.ReportValue(ctx, fmt.Sprintf("filled %d fields", len(fields)))
		return nil
	})
}

// fieldFailed names the field that failed and, when earlier ones were set,
// makes the failure an Incomplete: the action happened in part.
func fieldFailed(i, n int, t cdpclient.Target, err error) error {
	var ae *cdpclient.ArgError
	if errors.As(err, &ae) && i == 0 {
		return cdpclient.ArgErrorf(ae.Hint, "field 1 (%s): %s", t, ae.Msg)
	}
	c := cdpclient.Classify(err)
	msg := fmt.Sprintf("field %d of %d (%s): %s", i+1, n, t, c.Msg)
	if i == 0 {
		return &cdpclient.Error{Code: c.Code, Msg: msg, Hint: c.Hint, Ref: c.Ref, Err: err}
	}
	return &cdpclient.Incomplete{Msg: fmt.Sprintf("%s; the %d fields before it were set", msg, i), Hint: c.Hint, Err: err}
}

// fillField sets one field as its kind asks.
func (p *tab) fillField(ctx context.Context, f FormField) error {
	e, err := p.page.Resolve(ctx, f.Target)
	if err != nil {
		return err
	}
	var k struct {
		Kind    string `json:"kind"`
		Checked bool   `json:"checked"`
	}
	if err := call(ctx, e, "fieldKind", &k); err != nil {
		return err
	}
	switch k.Kind {
	case "checkbox":
		want, err := formBool(f.Value)
		if err != nil {
			return err
		}
		if want == k.Checked {
			return nil
		}
		return toggle(ctx, e)
	case "radio":
		return p.pickRadio(ctx, e, k.Checked, f.Value)
	case "select":
		return p.selectValues(ctx, e, []string{f.Value})
	case "file":
		paths, err := uploadPaths([]string{f.Value})
		if err != nil {
			return err
		}
		cdpclient.Dispatched(ctx)
		return setFiles(ctx, e, paths)
	}
	_, err = p.fill(ctx, e, f.Value, nil)
	return err
}

// formBool reads a checkbox's value.
func formBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "checked", "1":
		return true, nil
	case "false", "off", "no", "unchecked", "0", "":
		return false, nil
	}
	return false, cdpclient.ArgErrorf(`give a checkbox "true" or "false"`, "%q is not a checkbox value", v)
}

// pickRadio checks the radio value names: true for this one, or the value
// or label of another of its group.
func (p *tab) pickRadio(ctx context.Context, e *cdpclient.Element, checked bool, value string) error {
	if b, err := formBool(value); err == nil {
		if !b {
			return cdpclient.ArgErrorf("pick another radio of the group instead: give its value", "a radio cannot be unchecked")
		}
		if checked {
			return nil
		}
		return toggle(ctx, e)
	}
	other, err := related(ctx, e, "radioFor", value)
	if err != nil {
		return err
	}
	if other == nil {
		var choices []string
		_ = call(ctx, e, "radioChoices", &choices)
		return &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: fmt.Sprintf("no radio %q in the group", value), Hint: fmt.Sprintf("the choices are %q", choices)}
	}
	var k struct {
		Checked bool `json:"checked"`
	}
	if err := call(ctx, other, "fieldKind", &k); err != nil || k.Checked {
		return err
	}
	return toggle(ctx, other)
}

// toggle clicks a checkbox or radio (or its label, when the box itself is
// hidden), as a person does: the page's handlers see the click.
func toggle(ctx context.Context, e *cdpclient.Element) error {
	target := e
	if t, err := related(ctx, e, "clickTarget"); err == nil && t != nil {
		target = t
	}
	return target.Click(ctx)
}

// selectValues picks options of a <select> by value or label.
func (p *tab) selectValues(ctx context.Context, e *cdpclient.Element, values []string) error {
	var res struct {
		Missing []string `json:"missing"`
		Options []string `json:"options"`
		Error   string   `json:"error"`
	}
	if _, err := e.Actionable(ctx, cdpclient.Need{Visible: true, Enabled: true}); err != nil {
		return err
	}
	cdpclient.Dispatched(ctx)
	if err := call(ctx, e, "selectOptions", &res, values); err != nil {
		return err
	}
	return notSelected(res.Error, res.Missing, res.Options)
}
