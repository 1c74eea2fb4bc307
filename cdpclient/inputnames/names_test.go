package inputnames

import (
	"testing"

	"github.com/mafredri/cdp/protocol/input"
)

func TestButtons(t *testing.T) {
	for name, want := range map[string]input.MouseButton{"": input.MouseButtonLeft, "left": input.MouseButtonLeft,
		"right": input.MouseButtonRight, "middle": input.MouseButtonMiddle} {
		if got, ok := Button(name); !ok || got != want {
			t.Errorf("Button(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"Left", "back", "none"} {
		if got, ok := Button(name); ok {
			t.Errorf("Button(%q) = %q; want no button", name, got)
		}
	}
	if ButtonMask(input.MouseButtonLeft)|ButtonMask(input.MouseButtonRight)|ButtonMask(input.MouseButtonMiddle) != 7 || ButtonMask(input.MouseButtonNone) != 0 {
		t.Error("the buttons' bits are not 1, 2 and 4")
	}
}

// Modifier names in any case and their other spellings read as the Input
// domain's bits (Alt 1, Control 2, Meta 4, Shift 8); other keys are none.
func TestModifiers(t *testing.T) {
	for name, want := range map[string]struct {
		bit   int
		canon string
	}{"Alt": {1, "Alt"}, "option": {1, "Alt"}, "ctrl": {2, "Control"}, "CONTROL": {2, "Control"}, "ControlOrMeta": {2, "Control"},
		"cmd": {4, "Meta"}, "Command": {4, "Meta"}, "win": {4, "Meta"}, "shift": {8, "Shift"}} {
		if bit, canon, ok := Modifier(name); !ok || bit != want.bit || canon != want.canon {
			t.Errorf("Modifier(%q) = %d %q %v; want %d %q", name, bit, canon, ok, want.bit, want.canon)
		}
	}
	for _, name := range []string{"Enter", "a", "AltGraph", ""} {
		if _, _, ok := Modifier(name); ok {
			t.Errorf("Modifier(%q) is a modifier", name)
		}
	}
}
