package cdpclient

import (
	"context"
	"errors"
	"fmt"
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
