package busy

import (
	"fmt"
	"time"
)

// Hint is what to do about a page stuck in a script.
const Hint = "a script of the page is still running; reload (or closePage) stops it, or wait and take a snapshot"

// Error says a script of the page keeps its main thread busy, so the page
// answers nothing.
type Error struct {
	Since time.Time
}

func (e *Error) Error() string {
	return fmt.Sprintf("the page is busy: a script has kept it from answering for %.0f s", time.Since(e.Since).Seconds())
}

// ScriptTimeout says a caller's script (evaluate) did not finish in the call's
// time; Stopped says it was still running and was ended, rather than waiting
// for a promise that never settled.
type ScriptTimeout struct {
	After   time.Duration
	Stopped bool
}

func (e *ScriptTimeout) Error() string {
	if e.Stopped {
		return fmt.Sprintf("the page was still busy after %.1f s (the expression, or the page's own script or layout): the running script was stopped", e.After.Seconds())
	}
	return fmt.Sprintf("the expression's promise did not settle within %.1f s", e.After.Seconds())
}
