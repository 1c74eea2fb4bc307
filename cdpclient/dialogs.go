package cdpclient

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsdialog"
	"github.com/cdpmcp/cdpmcp/cdpclient/leaving"
	"github.com/mafredri/cdp/protocol/page"
)

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) waiting
// for an answer.
type Dialog = jsdialog.Dialog

// DialogOpenError is returned while a dialog blocks the page.
type DialogOpenError = jsdialog.OpenError

// DialogPolicy says what happens to a dialog no one answered when the next call
// meets it.
type DialogPolicy = jsdialog.Policy

// Dialog policies (jsdialog.Report, Accept, Dismiss).
const (
	DialogsReport  = jsdialog.Report
	DialogsAccept  = jsdialog.Accept
	DialogsDismiss = jsdialog.Dismiss
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

// dialogState is the dialog that blocks a page (cdpclient/jsdialog), with
// the watch an action keeps while it is answered.
type dialogState = jsdialog.State[watchSet]

// Dialog returns the dialog blocking the page, if any.
func (p *Page) Dialog() *Dialog { return p.dialogs.Current() }

// Changed returns a channel closed at the page's next change of state: a
// dialog opening or closing, a step of a navigation, the tab closing or
// crashing. Take it before reading the state (Dialog, URL) so that no change
// after the read is missed.
func (p *Page) Changed() <-chan struct{} { return p.changed.Watch() }

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
// prompt, in the session that reported it. A prompt accepted with no text
// answers its default text, as OK does for a person.
func (p *Page) answerDialog(ctx context.Context, accept bool, promptText string) error {
	answered, c := p.dialogs.Reported()
	if c == nil {
		c = p.c
	}
	if d := p.Dialog(); accept && promptText == "" && d != nil {
		promptText = d.DefaultPrompt
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
	p.dialogs.Answered(answered)
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
		leave, mark := accept && p.Dialog().Type == "beforeunload", p.hist.Mark()
		if err := p.answerDialog(ctx, accept, promptText); err != nil || !leave {
			return "", err
		}
		// The navigation that waited behind the prompt goes on: its load is
		// this answer's to wait for once it has begun.
		return "", leaving.Until(ctx, leavingTab{p}, time.Second, func() bool {
			return p.hist.LoadingSince(mark) || p.hist.Mark().Docs != mark.Docs
		})
	}})
}
