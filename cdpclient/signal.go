package cdpclient

import "sync"

// signal wakes the waits on a page's state. Each part of that state (its
// history, its dialogs, whether it lives) keeps its own lock and notifies
// the page's one signal after it changed, so that a wait on several parts
// (a load or a dialog or a close) wakes on any of them. A waiter takes
// watch before it reads the state it waits on: a change after the read
// closes the channel it holds.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func newSignal() *signal { return &signal{ch: make(chan struct{})} }

// watch returns a channel closed at the next notify.
func (s *signal) watch() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// notify wakes everyone watching.
func (s *signal) notify() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
}
