package browserproc

// LaunchError says the browser could not be started, and what to do about it.
type LaunchError struct {
	Err  error
	Hint string
	// Permanent is set when trying again cannot help without a change of
	// flags or of the machine: no browser where it was looked for, or a file
	// that cannot be run. (A browser that exited or did not start in time
	// may start on the next try.)
	Permanent bool
}

func (e *LaunchError) Error() string { return "the browser could not be started: " + e.Err.Error() }
func (e *LaunchError) Unwrap() error { return e.Err }

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
