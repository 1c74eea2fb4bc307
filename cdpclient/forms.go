package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/input"
	"github.com/mafredri/cdp/protocol/page"
)

// Type focuses the element and types text with real key events. With clear the
// existing content is replaced; with submit Enter is pressed afterwards.
func (p *Page) Type(ctx context.Context, t Target, text string, clear, submit bool) error {
	return p.withElement(ctx, t, func(ctx context.Context, e *Element) error {
		st, focused, err := e.fieldState(ctx, clear)
		if err != nil {
			return err
		}
		p.noteSecret(st, text)
		if !focused {
			if err := e.focusChecked(ctx, clear); err != nil {
				return err
			}
		}
		if clear {
			if err := p.toFront(ctx); err != nil {
				return err
			}
			if err := p.keyDownUp(ctx, namedKeys["Delete"], 0, nil); err != nil {
				return err
			}
		}
		if err := p.typeText(ctx, text); err != nil {
			return err
		}
		if submit {
			return p.keyDownUp(ctx, namedKeys["Enter"], 0, nil)
		}
		return nil
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

// Fill replaces the element's content with value in one step, firing the input and
// change events frameworks listen to, and returns the resulting value.
func (p *Page) Fill(ctx context.Context, t Target, value string) (string, error) {
	var got string
	err := p.withElement(ctx, t, func(ctx context.Context, e *Element) error {
		st, focused, err := e.fieldState(ctx, true)
		if err != nil {
			return err
		}
		p.noteSecret(st, value)
		if st.Tag == "input" && valueOnlyTypes[st.Type] {
			return e.call(ctx, "setValue", &got, value)
		}
		if !focused {
			if err := e.focusChecked(ctx, true); err != nil {
				return err
			}
		}
		if err := p.toFront(ctx); err != nil {
			return err
		}
		if value == "" {
			if err := p.keyDownUp(ctx, namedKeys["Delete"], 0, nil); err != nil {
				return err
			}
		} else if err := p.c.Input.InsertText(ctx, input.NewInsertTextArgs(value)); err != nil {
			return fmt.Errorf("insert text: %w", err)
		}
		return e.call(ctx, "committed", &got)
	})
	return got, err
}

// PressKey presses a key or chord (Enter, Control+A, Shift+Tab) in the focused
// element, or in the target after focusing it.
func (p *Page) PressKey(ctx context.Context, key string, t Target) error {
	c, err := parseChord(key)
	if err != nil {
		return err
	}
	return p.do(ctx, func(ctx context.Context) error {
		if !t.IsZero() {
			e, err := p.Resolve(ctx, t)
			if err != nil {
				return err
			}
			var focused bool
			if err := e.call(ctx, "focusForInput", &focused, false); err != nil {
				return err
			}
		}
		return p.pressChord(ctx, c)
	})
}

// SelectOption selects options of a <select> by value or visible label and returns
// the selected values.
func (p *Page) SelectOption(ctx context.Context, t Target, values []string) ([]string, error) {
	var res struct {
		Selected []string `json:"selected"`
		Missing  []string `json:"missing"`
		Options  []string `json:"options"`
		Error    string   `json:"error"`
	}
	err := p.withElement(ctx, t, func(ctx context.Context, e *Element) error {
		if _, err := e.actionable(ctx, need{visible: true, enabled: true}); err != nil {
			return err
		}
		return e.call(ctx, "selectOptions", &res, values)
	})
	switch {
	case err != nil:
		return nil, err
	case res.Error != "":
		return nil, &Error{Code: CodeNotFound, Msg: "cannot select: " + res.Error, Hint: "target the <select> element itself"}
	case len(res.Missing) > 0:
		return nil, &Error{Code: CodeNotFound, Msg: fmt.Sprintf("no option %q", res.Missing),
			Hint: fmt.Sprintf("the options are %q", res.Options)}
	}
	return res.Selected, nil
}

// UploadFile sets the files of an <input type=file>. Paths must exist.
func (p *Page) UploadFile(ctx context.Context, t Target, paths []string) error {
	abs := make([]string, len(paths))
	for i, path := range paths {
		a, err := filepath.Abs(path)
		if err == nil {
			var fi os.FileInfo
			if fi, err = os.Stat(a); err == nil && fi.IsDir() {
				err = errors.New("is a directory")
			}
		}
		if err != nil {
			return argError("give paths of existing files on the machine running the server", "cannot upload %q: %v", path, err)
		}
		abs[i] = a
	}
	return p.withElement(ctx, t, func(ctx context.Context, e *Element) error {
		st, err := e.state(ctx)
		if err != nil {
			return err
		}
		if st.Tag != "input" || st.Type != "file" {
			return &Error{Code: CodeNotFound, Msg: st.describe() + " is not a file input",
				Hint: "target the <input type=file> (it is often hidden: use selector input[type=file])"}
		}
		if err := e.c.DOM.SetFileInputFiles(ctx, dom.NewSetFileInputFilesArgs(abs).SetObjectID(e.object)); err != nil {
			return fmt.Errorf("set files: %w", err)
		}
		return nil
	})
}

// HandleDialog accepts or dismisses the open JavaScript dialog.
func (p *Page) HandleDialog(ctx context.Context, accept bool, promptText string) (*Dialog, error) {
	d := p.Dialog()
	if d == nil {
		return nil, &Error{Code: CodeNotFound, Msg: "no dialog is open", Hint: "handleDialog is only needed after an action reports a dialog"}
	}
	args := page.NewHandleJavaScriptDialogArgs(accept)
	if promptText != "" {
		args.SetPromptText(promptText)
	}
	if err := p.c.Page.HandleJavaScriptDialog(ctx, args); err != nil {
		return nil, fmt.Errorf("handle dialog: %w", err)
	}
	// Chrome confirms with Page.javascriptDialogClosed; do not let a call that
	// races that event see the dialog as still open.
	p.mu.Lock()
	p.dialog = nil
	p.notifyLocked()
	p.mu.Unlock()
	return d, nil
}
