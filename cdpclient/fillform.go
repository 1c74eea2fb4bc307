package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp/protocol/runtime"
)

// maxFormFields bounds the fields of one FillForm call.
const maxFormFields = 50

// FormField is one field FillForm sets: an element and its value. For a
// checkbox the value is true or false; for a radio, true or the value (or
// label) of the radio of its group to pick; for a <select>, an option's
// value or label; for a file input, a file's path; otherwise the text, date
// (2025-01-31), number or range value.
type FormField struct {
	Target Target
	Value  string
}

// FillForm sets many fields in one action, each as a person would (typed text
// with input and change events, clicks for checkboxes and radios, options
// picked, files given), and reports what happened. It stops at the first field
// it cannot set: the fields before it are set (ok, with the failure among the
// errors), or, if it was the first, nothing happened.
func (p *Page) FillForm(ctx context.Context, fields []FormField) (*feedback.Feedback, error) {
	switch {
	case len(fields) == 0:
		return nil, argError(`give fields, e.g. {"fields":[{"ref":"12","value":"Ada"},{"ref":"14","value":"true"}]}`, "no fields given")
	case len(fields) > maxFormFields:
		return nil, argError(fmt.Sprintf("fill at most %d fields per call", maxFormFields), "%d fields is too many", len(fields))
	}
	for i, f := range fields {
		if f.Target.IsZero() {
			return nil, argError("give each field a ref (from snapshot) or a selector", "field %d names no element", i+1)
		}
	}
	return p.perform(ctx, action{kind: actInput, lateMs: lateFrame, run: func(ctx context.Context, _ *Element) (string, error) {
		for i, f := range fields {
			if err := p.fillField(ctx, f); err != nil {
				return "", fieldFailed(i, len(fields), f.Target, err)
			}
		}
		return fmt.Sprintf("filled %d fields", len(fields)), nil
	}})
}

// fieldFailed names the field that failed and, when earlier ones were set,
// makes the failure an Incomplete: the action happened in part.
func fieldFailed(i, n int, t Target, err error) error {
	var ae *ArgError
	if errors.As(err, &ae) && i == 0 {
		return argError(ae.Hint, "field 1 (%s): %s", t, ae.Msg)
	}
	c := Classify(err)
	msg := fmt.Sprintf("field %d of %d (%s): %s", i+1, n, t, c.Msg)
	if i == 0 {
		return &Error{Code: c.Code, Msg: msg, Hint: c.Hint, Ref: c.Ref, Err: err}
	}
	return &Incomplete{Msg: fmt.Sprintf("%s; the %d fields before it were set", msg, i), Hint: c.Hint, Err: err}
}

// fillField sets one field as its kind asks.
func (p *Page) fillField(ctx context.Context, f FormField) error {
	e, err := p.Resolve(ctx, f.Target)
	if err != nil {
		return err
	}
	var k struct {
		Kind    string `json:"kind"`
		Checked bool   `json:"checked"`
	}
	if err := e.call(ctx, "fieldKind", &k); err != nil {
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
		return p.toggle(ctx, e)
	case "radio":
		return p.pickRadio(ctx, e, k.Checked, f.Value)
	case "select":
		return e.selectValues(ctx, []string{f.Value})
	case "file":
		paths, err := uploadPaths([]string{f.Value})
		if err != nil {
			return err
		}
		markDispatched(ctx)
		return e.setFiles(ctx, paths)
	}
	_, err = p.fill(ctx, e, f.Value)
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
	return false, argError(`give a checkbox "true" or "false"`, "%q is not a checkbox value", v)
}

// pickRadio checks the radio value names: true for this one, or the value
// or label of another of its group.
func (p *Page) pickRadio(ctx context.Context, e *Element, checked bool, value string) error {
	if b, err := formBool(value); err == nil {
		if !b {
			return argError("pick another radio of the group instead: give its value", "a radio cannot be unchecked")
		}
		if checked {
			return nil
		}
		return p.toggle(ctx, e)
	}
	other, err := e.related(ctx, "radioFor", value)
	if err != nil {
		return err
	}
	if other == nil {
		var choices []string
		_ = e.call(ctx, "radioChoices", &choices)
		return &Error{Code: CodeNotFound, Msg: fmt.Sprintf("no radio %q in the group", value), Hint: fmt.Sprintf("the choices are %q", choices)}
	}
	var k struct {
		Checked bool `json:"checked"`
	}
	if err := other.call(ctx, "fieldKind", &k); err != nil || k.Checked {
		return err
	}
	return p.toggle(ctx, other)
}

// related runs a page function on the element that answers another element
// of its frame (or null: nil), and returns a handle to it.
func (e *Element) related(ctx context.Context, fn string, args ...any) (*Element, error) {
	callArgs := make([]runtime.CallArgument, len(args))
	for i, a := range args {
		j, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		callArgs[i] = runtime.CallArgument{Value: j}
	}
	r, err := e.c.Runtime.CallFunctionOn(ctx, runtime.NewCallFunctionOnArgs(jsFunc(fn)).
		SetObjectID(e.object).SetArguments(callArgs).SetObjectGroup(e.p.group()))
	switch {
	case err != nil && nodeGone(err):
		return nil, e.gone()
	case err != nil:
		return nil, fmt.Errorf("%s: %w", fn, err)
	case r.ExceptionDetails != nil:
		return nil, &Error{Code: CodeJSError, Msg: fn + ": " + exceptionText(r.ExceptionDetails)}
	case r.Result.ObjectID == nil:
		return nil, nil
	}
	o := *e
	o.object, o.backend, o.ref = *r.Result.ObjectID, 0, ""
	return &o, nil
}

// toggle clicks a checkbox or radio (or its label, when the box itself is
// hidden), as a person does: the page's handlers see the click.
func (p *Page) toggle(ctx context.Context, e *Element) error {
	target := e
	if t, err := e.related(ctx, "clickTarget"); err == nil && t != nil {
		target = t
	}
	if _, err := target.actionable(ctx, need{visible: true, enabled: true}); err != nil {
		return err
	}
	pt, err := target.clickablePoint(ctx)
	if err != nil {
		return err
	}
	return p.mouseClick(ctx, pt.X, pt.Y, "left", 1, 0)
}

// selectValues picks options of a <select> by value or label.
func (e *Element) selectValues(ctx context.Context, values []string) error {
	var res struct {
		Missing []string `json:"missing"`
		Options []string `json:"options"`
		Error   string   `json:"error"`
	}
	if _, err := e.actionable(ctx, need{visible: true, enabled: true}); err != nil {
		return err
	}
	markDispatched(ctx)
	if err := e.call(ctx, "selectOptions", &res, values); err != nil {
		return err
	}
	switch {
	case res.Error != "":
		return &Error{Code: CodeNotFound, Msg: "cannot select: " + res.Error, Hint: "target the <select> element itself"}
	case len(res.Missing) > 0:
		return &Error{Code: CodeNotFound, Msg: fmt.Sprintf("no option %q", res.Missing), Hint: fmt.Sprintf("the options are %q", res.Options)}
	}
	return nil
}
