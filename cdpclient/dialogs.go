package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

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

// dialogState is the dialog that blocks a page, the session that reported
// it (the page's or an out-of-process frame's), the watch an action keeps
// while it is answered, and whether the renderer is being stopped to leave
// dialogs without end (dialogleave.go). Changes are notified on the page's
// signal.
type dialogState struct {
	changed *signal

	mu       sync.Mutex
	open     *Dialog
	c        *cdp.Client // the session that reported open
	kept     *watchSet   // an action's watch, kept while the dialog it opened is answered
	stopping bool        // the renderer is being stopped: its crash is no failure
}

// set records the open dialog (nil: none) and wakes the page's waits.
func (s *dialogState) set(d *Dialog, c *cdp.Client) {
	s.mu.Lock()
	s.open, s.c = d, c
	s.mu.Unlock()
	s.changed.notify()
}

// onEvent records a dialog opening or closing, in the page or one of its
// out-of-process frames (c is the session that reports it).
func (s *dialogState) onEvent(c *cdp.Client, method string, params json.RawMessage) {
	if method == "Page.javascriptDialogClosed" {
		s.set(nil, nil)
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
	s.set(d, c)
}

// current returns a copy of the open dialog, or nil.
func (s *dialogState) current() *Dialog {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		return nil
	}
	d := *s.open
	return &d
}

// reported returns the open dialog itself (to tell it from the next one) and
// the session that reported it.
func (s *dialogState) reported() (*Dialog, *cdp.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open, s.c
}

// answered forgets d once it was answered, unless another opened since.
func (s *dialogState) answered(d *Dialog) {
	s.mu.Lock()
	same := s.open == d
	if same {
		s.open, s.c = nil, nil
	}
	s.mu.Unlock()
	if same {
		s.changed.notify()
	}
}

// Dialog returns the dialog blocking the page, if any.
func (p *Page) Dialog() *Dialog { return p.dialogs.current() }

// Changed returns a channel closed at the page's next change of state: a
// dialog opening or closing, a step of a navigation, the tab closing or
// crashing. Take it before reading the state (Dialog, URL) so that no change
// after the read is missed.
func (p *Page) Changed() <-chan struct{} { return p.changed.watch() }

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
	answered, c := p.dialogs.reported()
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
	p.dialogs.answered(answered)
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
func (s *dialogState) keepWatch(ws watchSet) {
	s.mu.Lock()
	s.kept = &ws
	s.mu.Unlock()
}

// takeKeptWatch returns (once) the watch an action kept over its dialog.
func (s *dialogState) takeKeptWatch() (watchSet, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil {
		return watchSet{}, false
	}
	ws := *s.kept
	s.kept = nil
	return ws, true
}
