package secrets

import (
	"strings"
	"unicode/utf8"
)

// Pending sets the value owner is still typing (a person in a live view, key
// by key): it is redacted like a remembered value from its MinLen-th
// character on, and replaces what owner had pending before, so the prefixes
// typed on the way are not remembered for good. An empty v, or one shorter
// than MinLen, clears owner's pending value. Keep makes it permanent.
func (r *Registry) Pending(owner, v string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old, had := r.pending[owner]
	if utf8.RuneCountInString(v) < MinLen {
		if !had {
			return
		}
		delete(r.pending, owner)
	} else {
		if had && old == v {
			return
		}
		if r.pending == nil {
			r.pending = map[string]string{}
		}
		r.pending[owner] = v
	}
	r.rebuild()
}

// Keep remembers owner's pending value for good, as typed key by key (the
// starts the page saw on the way are masked too), and clears it.
func (r *Registry) Keep(owner string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.pending[owner]
	if !ok {
		return
	}
	delete(r.pending, owner)
	if e := r.values[v]; e != nil {
		e.typed = true
	} else {
		r.values[v] = &entry{typed: true, plain: true}
	}
	r.rebuild()
}

// Typing sets the value owner is typing key by key, as Pending does; when v
// neither extends nor shortens what owner had pending (the field was cleared
// and something else typed), that earlier value is kept first.
func (r *Registry) Typing(owner, v string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	old, had := r.pending[owner]
	r.mu.Unlock()
	if had && !strings.HasPrefix(v, old) && !strings.HasPrefix(old, v) {
		r.Keep(owner)
	}
	r.Pending(owner, v)
}
