package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Code classifies the outcome of an action; the numbers are part of the feedback
// contract (DESIGN.md).
type Code int

// Outcome codes.
const (
	CodeOK Code = iota
	CodeNotFound
	CodeDisabled
	CodeObscured
	CodeTimeout
	CodeNavigation
	CodeJSError
	CodeNetworkError
	CodePermission
	CodeValidation
)

var codeNames = [...]string{"SUCCESS", "NOT_FOUND", "DISABLED", "OBSCURED", "TIMEOUT", "NAVIGATION",
	"JS_ERROR", "NETWORK_ERROR", "PERMISSION", "VALIDATION"}

func (c Code) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return fmt.Sprintf("CODE_%d", int(c))
}

// Error is a failure a model can act on: what went wrong, classified, with a hint.
type Error struct {
	Code Code
	Msg  string
	Hint string
	// Ref names the element the failure is about, when there is one (e.g. the
	// element covering a click target).
	Ref string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

func newError(code Code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// ArgError reports an argument the caller must fix (a malformed selector, an
// unknown key name, a URL that does not parse).
type ArgError struct {
	Msg  string
	Hint string
}

func (e *ArgError) Error() string { return e.Msg }

func argError(hint, format string, args ...any) *ArgError {
	return &ArgError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// CodeOf classifies any error returned by this package.
func CodeOf(err error) Code {
	var e *Error
	switch {
	case err == nil:
		return CodeOK
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout
	}
	if isDialogErr(err) {
		return CodeObscured // as in the feedback: the dialog covers the page
	}
	return CodeJSError
}

// Explain classifies the failures this package knows, with a message and a hint
// a model can act on; ok is false for any other error.
func Explain(err error) (code Code, msg, hint string, ok bool) {
	var e *Error
	var c *ConnectionError
	switch {
	case errors.As(err, &e):
		return e.Code, e.Msg, e.Hint, true
	case isDialogErr(err):
		return CodeObscured, err.Error(), "answer it with handleDialog (accept true or false) first", true
	case errors.Is(err, ErrPageClosed):
		return CodeNavigation, "the page was closed", "use listPages and switchPage, or newPage", true
	case errors.Is(err, ErrPageCrashed):
		return CodeNavigation, "the page crashed", "closePage it, or navigate to load it again", true
	case errors.As(err, &c), errors.Is(err, ErrBrowserClosed):
		return CodeNetworkError, err.Error(), "call again: a browser this server launched is started anew; if attached, check that Chrome still runs with --remote-debugging-port", true
	case errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout, "the call did not finish in time", "the page may be busy or still loading; take a snapshot, then retry or raise timeoutMs", true
	}
	if s := err.Error(); strings.Contains(s, "context was destroyed") || strings.Contains(s, "navigated or closed") {
		return CodeNavigation, "the page navigated away during the action", "take a snapshot of the new page", true
	}
	return 0, "", "", false
}
