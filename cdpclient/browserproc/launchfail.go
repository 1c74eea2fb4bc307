package browserproc

import "fmt"

// startFailed explains a browser that did not come up: what happened, the
// last lines of its stderr, and a full disk under its profile (a browser that
// cannot write its profile hangs at start rather than exit).
func (p *Process) startFailed(what error, hint string) *LaunchError {
	err := fmt.Errorf("%w; its last lines: %s", what, p.stderr.lastLines(5))
	if p.profile != "" && noSpace(p.profile) {
		err = fmt.Errorf("%w; the disk holding its profile %s is full", err, p.profile)
		hint = "free space on that disk, then call again: cdpmcp tries to start the browser on every call"
	}
	return &LaunchError{Err: err, Hint: hint}
}
