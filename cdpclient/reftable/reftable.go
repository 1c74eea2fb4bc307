// Package reftable is which frame each ref of a page was handed out in, and
// the highest ref handed out, so that numbering goes on across frames and
// documents and a number is never used twice within a page. The refs
// themselves live in the page model of each frame's isolated world.
//
// It is a library the core (cdpclient) imports, keyed by the core's frame
// key; it never imports cdpclient.
package reftable

import "sync"

// Table remembers which frame (K) each ref of a page was handed out in. The
// numbers themselves are kept by the page model in each frame's isolated world
// (one per element, for the element's lifetime); last is the highest number ever
// handed out, so numbering continues across frames and documents and a number is
// never reused within the page.
type Table[K comparable] struct {
	mu    sync.Mutex
	last  int
	frame map[int]K
}

// New is a table of a page with no refs handed out yet.
func New[K comparable]() *Table[K] { return &Table[K]{frame: map[int]K{}} }

// Base returns the highest ref handed out so far.
func (t *Table[K]) Base() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// Record notes that refs in (from, to] were handed out in frame k.
func (t *Table[K]) Record(k K, from, to int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for r := from + 1; r <= to; r++ {
		t.frame[r] = k
	}
	t.last = max(t.last, to)
}

// Used reports whether any ref was ever handed out.
func (t *Table[K]) Used() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last > 0
}

// Frames lists the frames that hold refs.
func (t *Table[K]) Frames() []K {
	t.mu.Lock()
	defer t.mu.Unlock()
	seen := map[K]bool{}
	var out []K
	for _, k := range t.frame {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// Lookup returns the frame a ref was handed out in.
func (t *Table[K]) Lookup(ref int) (K, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k, ok := t.frame[ref]
	return k, ok
}
