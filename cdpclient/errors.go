package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/mafredri/cdp/rpcc"
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

func newError(code Code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

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

// Classify is the one classification of failures in cdpclient, by type: every
// error this package returns (and the context errors of a call) gets a code, a
// message and a hint a model can act on. Protocol errors are recognised by the
// browser's own error messages, at this one place.
func Classify(err error) *Error {
	var (
		e   *Error
		d   *DialogOpenError
		b   *busy.Error
		c   *cdpconn.ConnectionError
		le  *browserproc.LaunchError
		se  *browserproc.SetupError
		up  *UnknownPageError
		re  *rpcc.ResponseError
		arg *ArgError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case errors.As(err, &d):
		return &Error{Code: CodeObscured, Msg: d.Error(), Hint: "answer it with handleDialog (accept true or false) first", Err: err}
	case errors.As(err, &b):
		return &Error{Code: CodeTimeout, Msg: b.Error(), Hint: busy.Hint, Err: err}
	case errors.As(err, &c): // before the set-up errors a failed reconnect wraps
		return &Error{Code: CodeBrowserGone, Msg: c.Error(), Hint: connectionHint(c), Err: err}
	case errors.As(err, &le):
		return &Error{Code: CodeBrowserUnavailable, Msg: le.Error(), Hint: le.Hint, Err: err}
	case errors.As(err, &se):
		return &Error{Code: CodeBrowserUnavailable, Msg: se.Msg, Hint: se.Hint, Err: err}
	case errors.As(err, &up):
		return &Error{Code: CodeNotFound, Msg: up.Error(), Hint: "use listPages to see open pages, or newPage", Err: err}
	case errors.As(err, &arg):
		return &Error{Code: CodeValidation, Msg: arg.Msg, Hint: arg.Hint, Err: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Msg: "the call did not finish in time", Err: err,
			Hint: "the page may be busy or still loading; take a snapshot, then retry or raise timeoutMs"}
	case errors.Is(err, context.Canceled):
		return &Error{Code: CodeTimeout, Msg: "the call was stopped before it finished", Hint: "call again if it should still happen", Err: err}
	case errors.As(err, &re):
		if protocolGone(re.Message) {
			return &Error{Code: CodeNavigation, Msg: errNavigatedAway.Msg, Hint: errNavigatedAway.Hint, Err: err}
		}
	case sessionEnded(err):
		// The tab's (or a frame's) own connection ended under the call, while
		// the browser's stayed up: it closed or went away.
		return &Error{Code: CodeNavigation, Msg: "the tab or frame went away during the call", Hint: "use listPages to see the open tabs, then take a snapshot", Err: err}
	}
	return internalError(err)
}

// protocolGone reports the browser's answers for a document or frame that went
// away under a call (it navigated or closed).
func protocolGone(msg string) bool {
	return strings.Contains(msg, "Cannot find context with specified id") || strings.Contains(msg, "Execution context was destroyed") ||
		strings.Contains(msg, "Inspected target navigated or closed") || strings.Contains(msg, "Cannot find default execution context")
}

// nodeGone reports the browser's answers for a DOM node or remote object that
// no longer exists.
func nodeGone(err error) bool {
	var re *rpcc.ResponseError
	if !errors.As(err, &re) {
		return false
	}
	m := re.Message
	return strings.Contains(m, "Could not find node") || strings.Contains(m, "No node with given id") ||
		strings.Contains(m, "Node is detached") || strings.Contains(m, "Cannot find object with id") || protocolGone(m)
}

// internalError is the classification of a failure nothing else explains:
// cdpmcp's own, never the page's.
func internalError(err error) *Error {
	if errors.Is(err, syscall.ENOSPC) {
		return &Error{Code: CodeInternal, Msg: err.Error(), Err: err,
			Hint: "the disk is full: free space on it (df -h shows which), then call again"}
	}
	return &Error{Code: CodeInternal, Msg: err.Error(), Err: err,
		Hint: "this is not the page's doing: call again; if it repeats, run cdpmcp with --log-level debug and report what it logs"}
}

// closer is what rpcc's errors for a closed connection or stream implement.
type closer interface{ Closed() bool }

// sessionEnded reports a call cut short because its CDP session (a tab's or
// a frame's) ended while the browser's connection stayed up.
func sessionEnded(err error) bool {
	var c closer
	return errors.As(err, &c) && c.Closed()
}
