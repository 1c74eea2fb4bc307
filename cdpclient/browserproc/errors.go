package browserproc

// LaunchError says the browser could not be started, and what to do about it.
type LaunchError struct {
	Err  error
	Hint string
}

func (e *LaunchError) Error() string { return "the browser could not be started: " + e.Err.Error() }
func (e *LaunchError) Unwrap() error { return e.Err }
