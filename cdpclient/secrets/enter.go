package secrets

// Entry says how a value went into a secret field of a page.
type Entry struct {
	// Typed: key by key, so the page saw its start on the way (what a
	// strength meter asks about): from two thirds of it on, those starts are
	// masked too. A value set at once (fill) has no starts the page saw.
	Typed bool
	// Old is the text the page showed before the value reached it, where
	// the value was already there: the lines of its text, its text nodes
	// and attribute values that hold it (none, for a value the page did not
	// show). Where a found value stands between the same words as there, it
	// is the page's own word and stays (exempt.go).
	Old []string
}

// Enter remembers v, which cdpmcp entered into a secret field as e says. A
// value known otherwise too (Add) stays masked wherever it shows.
// Where the answers given out before showed v, those are the page's words
// too (history.go).
func (r *Registry) Enter(v string, e Entry) {
	if r == nil {
		return
	}
	old := e.Old
	if shown := r.shownBefore(v); len(shown) > 0 {
		old = append(append([]string{}, old...), shown...)
	}
	r.remember(v, entry{typed: e.Typed, old: old})
}
