// Package failure is how cdpclient answers failures: the Error a model can
// act on (a Code, a message, a hint), the ArgError for an argument to fix,
// the errors of a page or browser gone, and Classify, the one
// classification of every failure of the core and the libraries under it
// (a dialog open, a stuck page, a lost connection, a browser that would not
// start, the browser's own protocol errors) to an Error, and ExceptionText,
// how its errors word an exception a page's script threw.
//
// It is a library the core (cdpclient) imports, and re-exports under its
// own names (cdpclient.Error, cdpclient.Classify, the codes): it never
// imports cdpclient.
package failure

import "fmt"

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
	// CodeBrowserUnavailable: no browser could be started or reached because
	// of how cdpmcp is set up (a browser path, an endpoint, a flag); the hint
	// names what to fix.
	CodeBrowserUnavailable
	// CodeBrowserGone: the browser died or its connection closed; the message
	// says what cdpmcp does about it.
	CodeBrowserGone
	// CodeInternal: a failure of cdpmcp itself (a full disk, a job store that
	// cannot be written, anything no other code explains), not of the page.
	CodeInternal
)

var codeNames = [...]string{"SUCCESS", "NOT_FOUND", "DISABLED", "OBSCURED", "TIMEOUT", "NAVIGATION",
	"JS_ERROR", "NETWORK_ERROR", "PERMISSION", "VALIDATION", "BROWSER_UNAVAILABLE", "BROWSER_GONE", "INTERNAL"}

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

// ArgError reports an argument the caller must fix (a malformed selector, an
// unknown key name, a URL that does not parse). It is never an outcome of an
// action: nothing was tried.
type ArgError struct {
	Msg  string
	Hint string
}

func (e *ArgError) Error() string { return e.Msg }

// ArgErrorf is an *ArgError with its message formatted and the hint that
// fixes it.
func ArgErrorf(hint, format string, args ...any) *ArgError {
	return &ArgError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

var (
	// ErrPageClosed is returned for a page that has been closed.
	ErrPageClosed = &Error{Code: CodeNavigation, Msg: "the page is closed", Hint: "use listPages and switchPage, or newPage"}
	// ErrPageCrashed is returned for a page whose renderer crashed.
	ErrPageCrashed = &Error{Code: CodeNavigation, Msg: "the tab crashed (its renderer process died); other tabs are not affected",
		Hint: "reload it (or navigate it elsewhere) to load it again, or closePage it"}
	// ErrBrowserClosed is returned by calls after cdpmcp closed its browser
	// connection for good (it is shutting down).
	ErrBrowserClosed = &Error{Code: CodeBrowserGone, Msg: "the browser is closed: cdpmcp is shutting down", Hint: "call again once the server is back"}
	// errNavigatedAway is the page navigating (or closing) under an operation.
	errNavigatedAway = &Error{Code: CodeNavigation, Msg: "the page navigated away during the action", Hint: "take a snapshot of the new page"}
)

// UnknownPageError names a page id that is not open.
type UnknownPageError struct {
	ID   string
	Open []string
}

func (e *UnknownPageError) Error() string {
	return fmt.Sprintf("no page %q is open (open pages: %v)", e.ID, e.Open)
}
