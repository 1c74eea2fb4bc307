package cdpclient

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"

	"github.com/mafredri/cdp/protocol/input"
)

// Type focuses the element and types text with real key events, and reports what
// happened. With clear the existing content is replaced; with submit Enter is
// pressed afterwards. A field that has focus already keeps its selection, so
// Control+A and then Type replaces its content.
func (p *Page) Type(ctx context.Context, t Target, text string, clear, submit bool) (*feedback.Feedback, error) {
	return p.onElement(ctx, t, 0, func(ctx context.Context, e *Element) (string, error) {
		st, focused, err := e.fieldState(ctx, clear)
		if err != nil {
			return "", err
		}
		p.noteSecret(st, text)
		if !focused {
			if err := e.focusChecked(ctx, clear); err != nil {
				return "", err
			}
		}
		if clear {
			if err := p.toFront(ctx); err != nil {
				return "", err
			}
			if err := p.keyDownUp(ctx, namedKeys["Delete"], 0, nil); err != nil {
				return "", err
			}
		}
		if err := p.typeText(ctx, text); err != nil {
			return "", err
		}
		p.noteFieldValue(ctx, st, e)
		if submit {
			return "", p.keyDownUp(ctx, namedKeys["Enter"], 0, nil)
		}
		return "", nil
	})
}

var focusIfEditableJS = jsWith("focusIfEditable", "state", "focusForInput")

// fieldState checks that a field takes typed text and, when it does, focuses it
// in the same round trip; otherwise it waits as actionable does. focused reports
// whether the field was focused already.
func (e *Element) fieldState(ctx context.Context, replace bool) (st elementState, focused bool, err error) {
	var s struct {
		elementState
		Focused *bool `json:"focused"`
	}
	if err := e.callSrc(ctx, "focusIfEditable", focusIfEditableJS, &s, replace); err != nil {
		return s.elementState, false, err
	}
	if s.Focused != nil && *s.Focused {
		return s.elementState, true, nil
	}
	st, err = e.actionable(ctx, need{visible: true, enabled: true, editable: true})
	return st, false, err
}

// focusChecked focuses a field known to be actionable, selecting its content when
// replace is set.
func (e *Element) focusChecked(ctx context.Context, replace bool) error {
	var focused bool
	if err := e.call(ctx, "focusForInput", &focused, replace); err != nil {
		return err
	}
	if !focused {
		return &Error{Code: CodeObscured, Msg: "the element did not take focus",
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
func (p *Page) Fill(ctx context.Context, t Target, value string) (*feedback.Feedback, error) {
	return p.onElement(ctx, t, 0, func(ctx context.Context, e *Element) (string, error) {
		got, err := p.fill(ctx, e, value)
		if got == value {
			got = "" // only worth saying when the field changed what was filled
		}
		return got, err
	})
}

func (p *Page) fill(ctx context.Context, e *Element, value string) (string, error) {
	var got string
	st, focused, err := e.fieldState(ctx, true)
	if err != nil {
		return "", err
	}
	p.noteSecret(st, value)
	defer p.noteFieldValue(ctx, st, e)
	if st.Tag == "input" && valueOnlyTypes[st.Type] {
		markDispatched(ctx)
		return got, e.call(ctx, "setValue", &got, value)
	}
	if !focused {
		if err := e.focusChecked(ctx, true); err != nil {
			return "", err
		}
	}
	if err := p.toFront(ctx); err != nil {
		return "", err
	}
	if value == "" {
		if err := p.keyDownUp(ctx, namedKeys["Delete"], 0, nil); err != nil {
			return "", err
		}
	} else {
		markDispatched(ctx)
		if err := p.c.Input.InsertText(ctx, input.NewInsertTextArgs(value)); err != nil {
			return "", fmt.Errorf("insert text: %w", err)
		}
	}
	return got, e.call(ctx, "committed", &got)
}

// PressKey presses a key or chord (Enter, Control+A, Shift+Tab) in the focused
// element, or in the target after focusing it (its selection kept if it had
// focus), and reports what happened.
func (p *Page) PressKey(ctx context.Context, key string, t Target) (*feedback.Feedback, error) {
	c, err := parseChord(key)
	if err != nil {
		return nil, err
	}
	return p.perform(ctx, action{kind: actInput, target: t, resolve: true, lateMs: lateFrame, run: func(ctx context.Context, e *Element) (string, error) {
		if e != nil {
			var focused bool
			if err := e.call(ctx, "focusForInput", &focused, false); err != nil {
				return "", err
			}
		}
		pressed := p.keyIntoSecret(ctx, e, c)
		defer pressed()
		return "", p.pressChord(ctx, c)
	}})
}

// SelectOption selects options of a <select> by value or visible label and
// reports what happened; delta.value lists the values now selected.
func (p *Page) SelectOption(ctx context.Context, t Target, values []string) (*feedback.Feedback, error) {
	return p.onElement(ctx, t, lateFrame, func(ctx context.Context, e *Element) (string, error) {
		var res struct {
			Selected []string `json:"selected"`
			Missing  []string `json:"missing"`
			Options  []string `json:"options"`
			Error    string   `json:"error"`
		}
		if _, err := e.actionable(ctx, need{visible: true, enabled: true}); err != nil {
			return "", err
		}
		if err := e.call(ctx, "selectOptions", &res, values); err != nil {
			return "", err
		}
		switch {
		case res.Error != "":
			return "", &Error{Code: CodeNotFound, Msg: "cannot select: " + res.Error, Hint: "target the <select> element itself"}
		case len(res.Missing) > 0:
			return "", &Error{Code: CodeNotFound, Msg: fmt.Sprintf("no option %q", res.Missing),
				Hint: fmt.Sprintf("the options are %q", res.Options)}
		}
		markDispatched(ctx)
		return strings.Join(res.Selected, ","), nil
	})
}
