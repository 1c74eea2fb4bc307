package cdpclient

import (
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
)

// The core's errors, codes and Classify are cdpclient/failure's, under the
// names its callers use.

// Code classifies the outcome of an action; the numbers are part of the feedback
// contract (DESIGN.md).
type Code = failure.Code

// Outcome codes (failure.CodeOK …).
const (
	CodeOK                 = failure.CodeOK
	CodeNotFound           = failure.CodeNotFound
	CodeDisabled           = failure.CodeDisabled
	CodeObscured           = failure.CodeObscured
	CodeTimeout            = failure.CodeTimeout
	CodeNavigation         = failure.CodeNavigation
	CodeJSError            = failure.CodeJSError
	CodeNetworkError       = failure.CodeNetworkError
	CodePermission         = failure.CodePermission
	CodeValidation         = failure.CodeValidation
	CodeBrowserUnavailable = failure.CodeBrowserUnavailable
	CodeBrowserGone        = failure.CodeBrowserGone
	CodeInternal           = failure.CodeInternal
)

// Error is a failure a model can act on: what went wrong, classified, with a hint.
type Error = failure.Error

// ArgError reports an argument the caller must fix; it is never an outcome
// of an action: nothing was tried.
type ArgError = failure.ArgError

// UnknownPageError names a page id that is not open.
type UnknownPageError = failure.UnknownPageError

// ArgErrorf is an *ArgError with its message formatted and the hint that
// fixes it.
func ArgErrorf(hint, format string, args ...any) *ArgError {
	return failure.ArgErrorf(hint, format, args...)
}

func newError(code Code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

var (
	// ErrPageClosed is returned for a page that has been closed.
	ErrPageClosed = failure.ErrPageClosed
	// ErrPageCrashed is returned for a page whose renderer crashed.
	ErrPageCrashed = failure.ErrPageCrashed
	// ErrBrowserClosed is returned by calls after cdpmcp closed its browser
	// connection for good (it is shutting down).
	ErrBrowserClosed = failure.ErrBrowserClosed
)

// Classify turns any failure into an *Error with a code, a message and a
// hint a model can act on (failure.Classify).
func Classify(err error) *Error { return failure.Classify(err) }
