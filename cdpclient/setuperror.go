package cdpclient

import (
	"errors"
	"syscall"
)

// SetupError says no browser could be had because of how cdpmcp is set up:
// an endpoint that is not a URL, is not on this machine, or does not answer as
// Chrome's DevTools do. Its hint names the flag to fix. (A browser that cannot
// be started is a *LaunchError.)
type SetupError struct {
	Msg  string
	Hint string
	Err  error
	// Permanent is set when trying again cannot help: only a change of flags can.
	Permanent bool
}

func (e *SetupError) Error() string { return e.Msg }
func (e *SetupError) Unwrap() error { return e.Err }

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
