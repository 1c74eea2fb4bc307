package failure

import (
	"context"
	"errors"
	"strings"
	"syscall"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsdialog"
	"github.com/mafredri/cdp/rpcc"
)

// Classify is the one classification of failures in cdpclient, by type: every
// error cdpclient returns (and the context errors of a call) gets a code, a
// message and a hint a model can act on. Protocol errors are recognised by the
// browser's own error messages, at this one place.
func Classify(err error) *Error {
	var (
		e   *Error
		d   *jsdialog.OpenError
		b   *busy.Error
		nav *busy.Navigating
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
	case errors.As(err, &d) && d.Dialog.Type == "beforeunload":
		return &Error{Code: CodeObscured, Err: err,
			Msg:  "the page asks before leaving (it may hold unsaved work): the tab stays where it is, nothing is discarded",
			Hint: "handleDialog accept:true leaves, discarding what is unsaved, and the navigation goes on; accept:false stays"}
	case errors.As(err, &d):
		return &Error{Code: CodeObscured, Msg: d.Error(), Hint: "answer it with handleDialog (accept true or false) first", Err: err}
	case errors.As(err, &b):
		return &Error{Code: CodeTimeout, Msg: b.Error(), Hint: busy.Hint, Err: err}
	case errors.As(err, &nav):
		return &Error{Code: CodeTimeout, Msg: nav.Error(), Hint: busy.NavHint, Err: err}
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

// NodeGone reports the browser's answers for a DOM node or remote object that
// no longer exists.
func NodeGone(err error) bool {
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

// connectionHint says what happens after a *cdpconn.ConnectionError: a
// launched browser is started anew on the next call; an attached one is
// connected to again once it answers.
func connectionHint(e *cdpconn.ConnectionError) string {
	if e.Attached != "" {
		return "start Chrome again with --remote-debugging-port (or fix --cdp-endpoint) and call again: cdpmcp reconnects on the next call, no restart needed; its tabs and refs from before are gone"
	}
	return "call again: cdpmcp starts a new browser on the next call; tabs and refs from before are gone"
}
