// Package featureslots keeps the values features keep on a page or a
// browser context (cdpclient's Door.Slot, ContextDoor.Slot) by key: what a
// tab emulates, for instance. It never imports the core.
package featureslots

import "sync"

// Slots are one page's or context's values by key; the zero value is
// empty and ready. Its methods may be called concurrently.
type Slots struct {
	mu sync.Mutex
	m  map[any]any
}

// Get returns the value under key, made by make (under the lock: make must
// not use the door) on first use.
func (s *Slots) Get(key any, make func() any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[any]any{}
	}
	v, ok := s.m[key]
	if !ok {
		v = make()
		s.m[key] = v
	}
	return v
}
