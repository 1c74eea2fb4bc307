// Package tablife is whether a tab is still there: closed, or its renderer
// crashed (until the page is loaded anew in a new one). The core notes what
// its sessions report and asks before each operation; it never imports the
// core.
package tablife

import (
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
)

// Life is one tab's; its zero value is a tab that lives. Its methods may be
// called concurrently.
type Life struct {
	mu      sync.Mutex
	closed  bool
	crashed bool
}

// Close notes that the tab closed, for good.
func (l *Life) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

// Crash notes that the tab's renderer crashed.
func (l *Life) Crash() {
	l.mu.Lock()
	l.crashed = true
	l.mu.Unlock()
}

// Uncrash marks a crashed tab alive again and reports whether it had crashed.
func (l *Life) Uncrash() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	was := l.crashed
	l.crashed = false
	return was
}

// Err returns failure.ErrPageClosed or failure.ErrPageCrashed, or nil.
func (l *Life) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return failure.ErrPageClosed
	case l.crashed:
		return failure.ErrPageCrashed
	}
	return nil
}
