package cdpclient

import (
	"context"
	"strconv"
	"sync"

	"github.com/mafredri/cdp/protocol/runtime"
)

// actionLock lets one action at a time run on a page, and names the remote
// objects the running one makes (its object group, in the page's session
// and in the frames it touched) so that they are released as it ends.
type actionLock struct {
	run sync.Mutex // held while an action runs

	mu      sync.Mutex
	grp     string                 // object group of the running operation
	groups  int                    // object groups handed out
	touched map[*frameSession]bool // frames holding objects to release
}

// begin waits for the running action to end and starts an object group for
// the next.
func (l *actionLock) begin() {
	l.run.Lock()
	l.mu.Lock()
	l.groups++
	l.grp = "cdpmcp-" + strconv.Itoa(l.groups)
	l.mu.Unlock()
}

// end lets the next action run; release, called first, gets the group that
// ends and the frames that hold objects of it.
func (l *actionLock) end(release func(group string, frames map[*frameSession]bool)) {
	l.mu.Lock()
	group, frames := l.grp, l.touched
	l.touched = nil
	l.mu.Unlock()
	release(group, frames)
	l.run.Unlock()
}

// group names the remote objects of the running operation.
func (l *actionLock) group() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grp == "" {
		return "cdpmcp"
	}
	return l.grp
}

// touch notes that a frame's session holds objects of the running group.
func (l *actionLock) touch(f *frameSession) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.touched == nil {
		l.touched = map[*frameSession]bool{}
	}
	l.touched[f] = true
}

// releaseObjects frees the remote objects of an operation that finished (its
// object group), in the background: the next operation uses a group of its
// own.
func (p *Page) releaseObjects(group string, frames map[*frameSession]bool) {
	if group == "" {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
		defer cancel()
		args := runtime.NewReleaseObjectGroupArgs(group)
		_ = p.c.Runtime.ReleaseObjectGroup(ctx, args)
		for f := range frames {
			_ = f.c.Runtime.ReleaseObjectGroup(ctx, args)
		}
	}()
}
