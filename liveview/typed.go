package liveview

import (
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// typedText keeps what a person types into the tab out of everything cdpmcp
// writes. It follows the text run by run (a run ends where the focus may move:
// a click, a tap, Tab, Enter, Escape, an arrow key) and keeps the registry
// redacting the run being typed from its MinLen-th character on, before the
// key that could send it anywhere (Enter, a click on a button) reaches the
// page. Finished runs stay redacted for good. It cannot know which field a
// run went into, so all of it is treated as secret: a password, the name
// typed before it, a one-time code.
type typedText struct {
	reg   *secrets.Registry // nil: nothing to keep
	owner string

	mu  sync.Mutex
	run []rune
}

// add appends text typed by a key or an input method.
func (t *typedText) add(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.run = append(t.run, []rune(text)...)
	t.reg.Pending(t.owner, string(t.run))
}

// back takes away the last character (Backspace).
func (t *typedText) back() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.run) == 0 {
		return
	}
	t.run = t.run[:len(t.run)-1]
	t.reg.Pending(t.owner, string(t.run))
}

// cut ends the run: what it holds stays redacted for good.
func (t *typedText) cut() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reg.Keep(t.owner)
	t.run = t.run[:0]
}

// keep ends the last run at the end of the offer.
func (t *typedText) keep() { t.cut() }

// runEnds reports whether a key ends a run: it may move the focus or send
// what was typed.
func runEnds(key string) bool {
	switch key {
	case "Enter", "Tab", "Escape", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
		"Home", "End", "PageUp", "PageDown":
		return true
	}
	return false
}
