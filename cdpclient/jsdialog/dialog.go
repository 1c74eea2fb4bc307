// Package jsdialog is the JavaScript dialog (alert, confirm, prompt,
// beforeunload) that blocks a page, as the page's sessions report it
// opening and closing: the dialog, the session to answer it in, the watch an
// action keeps while it is answered, and whether the page's renderer is
// being stopped to leave dialogs without end. It also names the policies for
// a dialog no one answered.
//
// It is a library the core (cdpclient) imports: it sends nothing to the
// browser (the core answers dialogs) and never imports cdpclient.
package jsdialog

import (
	"fmt"
)

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) waiting
// for an answer.
type Dialog struct {
	Type          string
	Message       string
	DefaultPrompt string
}

// OpenError is returned while a dialog blocks the page.
type OpenError struct{ Dialog Dialog }

func (e *OpenError) Error() string {
	article := "a"
	if e.Dialog.Type == "alert" {
		article = "an"
	}
	return fmt.Sprintf("%s %s dialog is open (%q)", article, e.Dialog.Type, e.Dialog.Message)
}

// Policy says what happens to a dialog no one answered when the next call
// meets it.
type Policy string

// Dialog policies. Whatever the policy, a navigation away from the page closes
// its dialog as a person's would (leaving past a beforeunload prompt).
const (
	// Report answers the next call with the dialog and a hint to
	// answer it with handleDialog (the default).
	Report Policy = "report"
	// Accept presses OK on it, reporting so in the next call's feedback.
	Accept Policy = "accept"
	// Dismiss presses Cancel on it, reporting so likewise.
	Dismiss Policy = "dismiss"
)
