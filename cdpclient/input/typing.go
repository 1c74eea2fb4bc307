package input

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/mafredri/cdp"
	cdpinput "github.com/mafredri/cdp/protocol/input"
)

// Type focuses the element and types text with real key events, and reports what
// happened. With clear the existing content is replaced; with submit Enter is
// pressed afterwards. A field that has focus already keeps its selection, so
// Control+A and then Type replaces its content.
func Type(ctx context.Context, page *cdpclient.Page, t cdpclient.Target, text string, clear, submit bool) (*feedback.Feedback, error) {
	p := on(page)
	var secret atomic.Bool // fn may outlive Run's answer
	fb, err := p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{Target: t, NeedTarget: true}), func(ctx context.Context, _ *cdp.Client) error {
		e := cdpclient.ActionElement(ctx)
		st, focused, shown, err := fieldState(ctx, e, clear, text)
		if err != nil {
			return err
		}
		secret.Store(p.noteSecret(ctx, e, st, true, text, shown))
		if !focused {
			if err := focusChecked(ctx, e, clear); err != nil {
				return err
			}
		}
		if clear {
			if err := p.d.Input().ToFront(ctx); err != nil {
				return err
			}
			if err := p.keyDownUp(ctx, namedKeys["Delete"], 0, nil); err != nil {
				return err
			}
		}
		if err := p.typeText(ctx, text); err != nil {
			return err
		}
		if text != "" {
			cdpclient.Typed(ctx)
		}
		p.noteFieldValue(ctx, st, e)
		if err := p.typedShows(ctx, e, st, text); err != nil {
			return err // not submitted: the field does not hold what was typed
		}
		if submit {
			return p.keyDownUp(ctx, namedKeys["Enter"], 0, nil)
		}
		return nil
	})
	return withSecretHint(fb, err, secret.Load())
}

// typedShows checks that an <input> or <textarea> (not a secret one, whose
// value is not said) holds the text typed into it: when it holds none of
// it (a number field given letters, a maxlength, a script that rejects
// keys), delta.value says what it holds, and an empty field is an
// *cdpclient.Incomplete: the keys went in, the text did not.
func (p *tab) typedShows(ctx context.Context, e *cdpclient.Element, st cdpclient.ElementState, text string) error {
	if text == "" || st.Secret || (st.Tag != "input" && st.Tag != "textarea") {
		return nil
	}
	var got string
	if call(ctx, e, "fieldValue", &got) != nil || strings.Contains(got, text) {
		return nil
	}
	if got == "" {
		return notTaken("text")
	}
	cdpclient.ReportValue(ctx, got)
	return nil
}

// notTaken is the answer for a field left empty by what was put in it.
func notTaken(what string) error {
	return &cdpclient.Incomplete{Msg: "the field did not take the " + what + ": it is empty",
		Hint: "the field refuses what was given (a number field takes only a number; a pattern, a mask or a script may reject it): give a value it takes"}
}

var focusIfEditableJS = funcs.With("focusIfEditable", "state", "focusForInput", "oldText")

// fieldState checks that a field takes typed text and, when it does, focuses it
// in the same round trip; otherwise it waits as actionable does. focused reports
// whether the field was focused already. For a secret field the same round
// trip asks what the page shows already of value (oldText, for noteSecret).
func fieldState(ctx context.Context, e *cdpclient.Element, replace bool, value string) (st cdpclient.ElementState, focused bool, shown *oldShown, err error) {
	var s struct {
		cdpclient.ElementState
		Focused *bool     `json:"focused"`
		Asked   bool      `json:"asked"`
		Old     *[]string `json:"old"`
	}
	if err := e.Call(ctx, "focusIfEditable", focusIfEditableJS, &s, replace, oldNeedle(value)); err != nil {
		return s.ElementState, false, nil, err
	}
	if s.Asked {
		shown = &oldShown{asked: true}
		if s.Old != nil {
			shown.old = *s.Old
		}
	}
	if s.Focused != nil && *s.Focused {
		return s.ElementState, true, shown, nil
	}
	st, err = e.Actionable(ctx, cdpclient.Need{Visible: true, Enabled: true, Editable: true})
	if !st.Secret {
		shown = nil
	}
	return st, false, shown, err
}

// focusChecked focuses a field known to be actionable, selecting its content when
// replace is set.
func focusChecked(ctx context.Context, e *cdpclient.Element, replace bool) error {
	var focused bool
	if err := call(ctx, e, "focusForInput", &focused, replace); err != nil {
		return err
	}
	if !focused {
		return &cdpclient.Error{Code: cdpclient.CodeObscured, Msg: "the element did not take focus",
			Hint: "another element may steal focus; click the field first"}
	}
	return nil
}

// valueOnlyTypes are input types whose value cannot be typed character by character.
var valueOnlyTypes = map[string]bool{"date": true, "time": true, "datetime-local": true, "month": true,
	"week": true, "color": true, "range": true}

// Fill replaces the element's content with value in one step, firing the input
// and change events frameworks listen to, and reports what happened; delta.value
// is the value the field ended up with when the page changed it (a mask, a
// formatter).
func Fill(ctx context.Context, page *cdpclient.Page, t cdpclient.Target, value string) (*feedback.Feedback, error) {
	p := on(page)
	var secret atomic.Bool // fn may outlive Run's answer
	fb, err := p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{Target: t, NeedTarget: true}), func(ctx context.Context, _ *cdp.Client) error {
		e := cdpclient.ActionElement(ctx)
		got, err := p.fill(ctx, e, value, &secret)
		if err == nil && got == "" && value != "" {
			return notTaken("value")
		}
		if got == value {
			got = "" // only worth saying when the field changed what was filled
		}
		cdpclient.ReportValue(ctx, got)
		return err
	})
	return withSecretHint(fb, err, secret.Load())
}

// fill sets the value; secret (when not nil) learns whether the field holds
// a secret.
func (p *tab) fill(ctx context.Context, e *cdpclient.Element, value string, secret *atomic.Bool) (string, error) {
	var got string
	st, focused, shown, err := fieldState(ctx, e, true, value)
	if err != nil {
		return "", err
	}
	if p.noteSecret(ctx, e, st, false, value, shown) && secret != nil {
		secret.Store(true)
	}
	committed := false
	defer func() {
		if !committed {
			p.noteFieldValue(ctx, st, e) // what it holds after a fill that stopped half way
		}
	}()
	if st.Tag == "input" && valueOnlyTypes[st.Type] {
		cdpclient.Dispatched(ctx)
		return got, call(ctx, e, "setValue", &got, value)
	}
	if !focused {
		if err := focusChecked(ctx, e, true); err != nil {
			return "", err
		}
	}
	if err := p.d.Input().ToFront(ctx); err != nil {
		return "", err
	}
	if value == "" {
		if err := p.keyDownUp(ctx, namedKeys["Delete"], 0, nil); err != nil {
			return "", err
		}
	} else {
		cdpclient.Dispatched(ctx)
		if err := p.c.Input.InsertText(ctx, cdpinput.NewInsertTextArgs(value)); err != nil {
			return "", fmt.Errorf("insert text: %w", err)
		}
	}
	if err := call(ctx, e, "committed", &got); err != nil {
		return got, err
	}
	// What a secret field holds now (a page's mask may have changed it) is
	// secret too: committed read it already.
	committed = true
	if st.Secret {
		p.page.Context().Secrets().Enter(got, secrets.Entry{})
	}
	return got, nil
}

// PressKey presses a key or chord (Enter, Control+A, Shift+Tab) in the focused
// element, or in the target after focusing it (its selection kept if it had
// focus), and reports what happened.
func PressKey(ctx context.Context, page *cdpclient.Page, key string, t cdpclient.Target) (*feedback.Feedback, error) {
	c, err := parseChord(key)
	if err != nil {
		return nil, err
	}
	p := on(page)
	return p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{Target: t, LateMs: cdpclient.LateFrame}), func(ctx context.Context, _ *cdp.Client) error {
		e := cdpclient.ActionElement(ctx)
		if e != nil {
			var focused bool
			if err := call(ctx, e, "focusForInput", &focused, false); err != nil {
				return err
			}
		}
		pressed := p.keyIntoSecret(ctx, e, c)
		defer pressed()
		return p.pressChord(ctx, c)
	})
}

// SelectOption selects options of a <select> by value or visible label and
// reports what happened; delta.value lists the values now selected.
func SelectOption(ctx context.Context, page *cdpclient.Page, t cdpclient.Target, values []string) (*feedback.Feedback, error) {
	p := on(page)
	return p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{Target: t, NeedTarget: true, LateMs: cdpclient.LateFrame}), func(ctx context.Context, _ *cdp.Client) error {
		e := cdpclient.ActionElement(ctx)
		var res struct {
			Selected []string `json:"selected"`
			Missing  []string `json:"missing"`
			Options  []string `json:"options"`
			Error    string   `json:"error"`
		}
		if _, err := e.Actionable(ctx, cdpclient.Need{Visible: true, Enabled: true}); err != nil {
			return err
		}
		if err := call(ctx, e, "selectOptions", &res, values); err != nil {
			return err
		}
		if err := notSelected(res.Error, res.Missing, res.Options); err != nil {
			return err
		}
		cdpclient.Dispatched(ctx)
		cdpclient.ReportValue(ctx, strings.Join(res.Selected, ","))
		return nil
	})
}

// notSelected is the error of a selection selectOptions (js/field.js)
// refused: errText, options missing from the <select>, or nil.
func notSelected(errText string, missing, options []string) error {
	switch {
	case errText == oneValue:
		return &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "cannot select: " + errText, Hint: "give one value: this <select> allows one choice"}
	case strings.Contains(errText, " is the label of "):
		return &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "cannot select: " + errText,
			Hint: "name the option unmistakably: the value of the one you mean, or the label of the one whose value is not another's label"}
	case errText != "":
		return &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "cannot select: " + errText, Hint: "target the <select> element itself"}
	case len(missing) > 0:
		return &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: fmt.Sprintf("no option %q", missing), Hint: fmt.Sprintf("the options are %q", options)}
	}
	return nil
}

// oneValue is selectOptions' refusal of several values for a <select>
// without multiple.
const oneValue = "the <select> takes one value"
