// Package wakeup is the one signal that wakes the waits on a page's state
// (a load, a dialog, a close): Signal. It never imports the core.
package wakeup

import "sync"

// Signal wakes the waits on a page's state. Each part of that state (its
// history, its dialogs, whether it lives) keeps its own lock and notifies
// the page's one signal after it changed, so that a wait on several parts
// (a load or a dialog or a close) wakes on any of them. A waiter takes
// Watch before it reads the state it waits on: a change after the read
// closes the channel it holds.
type Signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// New is a Signal no one watches yet.
func New() *Signal { return &Signal{ch: make(chan struct{})} }

// Watch returns a channel closed at the next notify.
func (s *Signal) Watch() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// Notify wakes everyone watching.
func (s *Signal) Notify() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
}
