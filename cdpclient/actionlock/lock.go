// Package actionlock lets one action at a time run on a page, and names the
// remote objects the running one makes (its object group, "cdpmcp-N") and
// the frames (F) whose sessions hold some, so that the core releases them as
// the action ends.
//
// It is a library the core (cdpclient) imports; it sends nothing to the
// browser and never imports cdpclient.
package actionlock

import (
	"strconv"
	"sync"
)

// Lock lets one action at a time run on a page, and names the remote
// objects the running one makes (its object group, in the page's session
// and in the frames it touched) so that they are released as it ends.
type Lock[F comparable] struct {
	run sync.Mutex // held while an action runs

	mu      sync.Mutex
	grp     string     // object group of the running operation
	groups  int        // object groups handed out
	touched map[F]bool // frames holding objects to release
}

// Begin waits for the running action to end and starts an object group for
// the next.
func (l *Lock[F]) Begin() {
	l.run.Lock()
	l.mu.Lock()
	l.groups++
	l.grp = "cdpmcp-" + strconv.Itoa(l.groups)
	l.mu.Unlock()
}

// End lets the next action run; release, called first, gets the group that
// ends and the frames that hold objects of it.
func (l *Lock[F]) End(release func(group string, frames map[F]bool)) {
	l.mu.Lock()
	group, frames := l.grp, l.touched
	l.touched = nil
	l.mu.Unlock()
	release(group, frames)
	l.run.Unlock()
}

// Group names the remote objects of the running operation.
func (l *Lock[F]) Group() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grp == "" {
		return "cdpmcp"
	}
	return l.grp
}

// Touch notes that a frame's session holds objects of the running group.
func (l *Lock[F]) Touch(f F) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.touched == nil {
		l.touched = map[F]bool{}
	}
	l.touched[f] = true
}
