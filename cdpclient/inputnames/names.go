// Package inputnames reads the names of mouse buttons and modifier keys a
// caller gives (left, right, middle; Alt, Control, Meta, Shift in any case,
// or another spelling: Ctrl, Cmd, Option …) as the DevTools Input domain
// numbers them. The core's click and the live input features
// (cdpclient/input) read them alike.
//
// It is a library under the core (cdpclient), like cdpclient/cdpconn: it
// imports the standard library, mafredri/cdp's Input domain and
// cdpclient/failure, never cdpclient. A name it does not know is an argument
// error (failure.ArgError) in ParseButton and ParseModifiers.
package inputnames

import (
	"strings"

	"github.com/mafredri/cdp/protocol/input"
)

// Button is the mouse button a name says: left (or ""), right or middle;
// false for any other name.
func Button(name string) (input.MouseButton, bool) {
	switch name {
	case "", "left":
		return input.MouseButtonLeft, true
	case "right":
		return input.MouseButtonRight, true
	case "middle":
		return input.MouseButtonMiddle, true
	}
	return "", false
}

// ButtonMask is a button's bit in the buttons a mouse event says are held.
func ButtonMask(b input.MouseButton) int {
	switch b {
	case input.MouseButtonLeft:
		return 1
	case input.MouseButtonRight:
		return 2
	case input.MouseButtonMiddle:
		return 4
	}
	return 0
}

// modifiers are the modifier keys with their bits as the Input domain
// numbers them, and other spellings of their names (lower case).
var (
	modifiers       = map[string]int{"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}
	modifierAliases = map[string]string{"ctrl": "Control", "control": "Control", "controlormeta": "Control",
		"cmd": "Meta", "command": "Meta", "super": "Meta", "win": "Meta", "option": "Alt"}
)

// Modifier reads a modifier key's name, in any case or another spelling:
// its bit in an input event's modifiers and its canonical name.
func Modifier(name string) (bit int, canonical string, ok bool) {
	if alias, found := modifierAliases[strings.ToLower(name)]; found {
		name = alias
	}
	for k, b := range modifiers {
		if strings.EqualFold(k, name) {
			return b, k, true
		}
	}
	return 0, "", false
}
