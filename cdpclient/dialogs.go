package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) waiting
// for an answer.
type Dialog struct {
	Type          string
	Message       string
	DefaultPrompt string
}

// DialogOpenError is returned while a dialog blocks the page.
type DialogOpenError struct{ Dialog Dialog }

func (e *DialogOpenError) Error() string {
	article := "a"
	if e.Dialog.Type == "alert" {
		article = "an"
	}
	return fmt.Sprintf("%s %s dialog is open (%q)", article, e.Dialog.Type, e.Dialog.Message)
}

// DialogPolicy says what happens to a dialog no one answered when the next call
// meets it.
type DialogPolicy string

// Dialog policies. Whatever the policy, a navigation away from the page closes
// its dialog as a person's would (leaving past a beforeunload prompt).
const (
	// DialogsReport answers the next call with the dialog and a hint to
	// answer it with handleDialog (the default).
	DialogsReport DialogPolicy = "report"
	// DialogsAccept presses OK on it, reporting so in the next call's feedback.
	DialogsAccept DialogPolicy = "accept"
	// DialogsDismiss presses Cancel on it, reporting so likewise.
	DialogsDismiss DialogPolicy = "dismiss"
)

// ParseDialogPolicy checks a policy name; "" is the default.
func ParseDialogPolicy(s string) (DialogPolicy, error) {
	switch DialogPolicy(s) {
	case "":
		return DialogsReport, nil
	case DialogsReport, DialogsAccept, DialogsDismiss:
		return DialogPolicy(s), nil
	}
	return "", ArgErrorf("use report, accept or dismiss", "%q is not a dialog policy", s)
}

// onDialogEvent records a dialog opening or closing, in the page or one of its
// out-of-process frames (c is the session that reports it).
func (p *Page) onDialogEvent(c *cdp.Client, method string, params json.RawMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if method == "Page.javascriptDialogClosed" {
		p.dialog, p.dialogC = nil, nil
		p.changed.notify()
		return
	}
	var ev page.JavascriptDialogOpeningReply
	if json.Unmarshal(params, &ev) != nil {
		return
	}
	d := &Dialog{Type: string(ev.Type), Message: ev.Message}
	if ev.DefaultPrompt != nil {
		d.DefaultPrompt = *ev.DefaultPrompt
	}
	p.dialog, p.dialogC = d, c
	p.changed.notify()
}

// Dialog returns the dialog blocking the page, if any.
func (p *Page) Dialog() *Dialog {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dialog == nil {
		return nil
	}
	d := *p.dialog
	return &d
}

// answerBlockingDialog deals with a dialog that stands in the way of a call
// other than a navigation (which leaves past it: leaveDialogs): the dialog
// policy answers it, or, by default, the call fails saying a dialog is open.
// It returns how the dialog was closed, for the feedback.
func (p *Page) answerBlockingDialog(ctx context.Context) (*feedback.Dialog, error) {
	d := p.Dialog()
	if d == nil {
		return nil, nil
	}
	var accept bool
	switch p.bc.b.dialogs {
	case DialogsAccept:
		accept = true
	case DialogsDismiss:
		accept = false
	default:
		return nil, &DialogOpenError{Dialog: *d}
	}
	if err := p.answerDialog(ctx, accept, ""); err != nil {
		return nil, err
	}
	how := "dismissed"
	if accept {
		how = "accepted"
	}
	return &feedback.Dialog{Type: d.Type, Msg: feedback.Truncate(d.Message, 160), Closed: how}, nil
}

// answerDialog presses OK (accept) or Cancel on the open dialog, with text for a
// prompt, in the session that reported it.
func (p *Page) answerDialog(ctx context.Context, accept bool, promptText string) error {
	p.mu.Lock()
	c, answered := p.dialogC, p.dialog
	p.mu.Unlock()
	if c == nil {
		c = p.c
	}
	args := page.NewHandleJavaScriptDialogArgs(accept)
	if promptText != "" {
		args.SetPromptText(promptText)
	}
	if err := c.Page.HandleJavaScriptDialog(ctx, args); err != nil {
		return fmt.Errorf("handle dialog: %w", err)
	}
	// Chrome confirms with Page.javascriptDialogClosed; do not let a call that
	// races that event see the dialog as still open. One the page opened
	// meanwhile (the next of a loop) stays.
	p.mu.Lock()
	if p.dialog == answered {
		p.dialog, p.dialogC = nil, nil
		p.changed.notify()
	}
	p.mu.Unlock()
	return nil
}

// HandleDialog accepts or dismisses the open JavaScript dialog (with text for a
// prompt) and reports what the page did next: the handler that opened the
// dialog runs on, and its changes are in the feedback.
func (p *Page) HandleDialog(ctx context.Context, accept bool, promptText string) (*feedback.Feedback, error) {
	return p.perform(ctx, action{kind: actDialog, lateMs: lateFrame, run: func(ctx context.Context, _ *Element) (string, error) {
		if p.Dialog() == nil {
			return "", &Error{Code: CodeNotFound, Msg: "no dialog is open", Hint: "handleDialog is only needed after an action reports a dialog"}
		}
		markDispatched(ctx)
		return "", p.answerDialog(ctx, accept, promptText)
	}})
}

// keepWatch keeps an action's watch while the dialog it opened is open: the
// page cannot run the watch's scripts until it is answered, and what the
// handler does after the dialog belongs to the answer's feedback.
func (p *Page) keepWatch(ws watchSet) {
	p.mu.Lock()
	p.kept = &ws
	p.mu.Unlock()
}

// takeKeptWatch returns (once) the watch an action kept over its dialog.
func (p *Page) takeKeptWatch() (watchSet, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.kept == nil {
		return watchSet{}, false
	}
	ws := *p.kept
	p.kept = nil
	return ws, true
}
