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

// NavHint is what to do about a tab waiting for a navigation's server.
const NavHint = "wait, then take a snapshot (or waitFor what the next page shows); reload stops waiting and stays on this page, navigate or goBack go elsewhere"

// Navigating says the tab is waiting for the server of a navigation (a link
// followed, a form sent) to answer: until it does, the browser lets no call
// reach the page it is leaving, though no script keeps that page busy.
type Navigating struct {
	URL   string
	Since time.Time
}

func (e *Navigating) Error() string {
	return fmt.Sprintf("the tab is waiting for %s to answer (%.0f s): the page cannot be read or acted on until it does", e.URL, time.Since(e.Since).Seconds())
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
