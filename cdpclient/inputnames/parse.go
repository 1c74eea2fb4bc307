package inputnames

import (
	"github.com/cdpmcp/cdpmcp/cdpclient/failure"
	"github.com/mafredri/cdp/protocol/input"
)

// ParseButton reads a mouse button's name a caller gave (left when empty);
// another name is an argument error.
func ParseButton(name string) (input.MouseButton, error) {
	if button, ok := Button(name); ok {
		return button, nil
	}
	return "", failure.ArgErrorf("use left, right or middle", "button %q is not a mouse button", name)
}

// ParseModifiers reads the modifier keys a caller gave into an input event's
// modifiers; a name that is none is an argument error.
func ParseModifiers(names []string) (int, error) {
	mods := 0
	for _, n := range names {
		bit, _, ok := Modifier(n)
		if !ok {
			return 0, failure.ArgErrorf("modifiers are Alt, Control, Meta and Shift", "%q is not a modifier key", n)
		}
		mods |= bit
	}
	return mods, nil
}
