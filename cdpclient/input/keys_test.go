package input

import (
	"errors"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/google/go-cmp/cmp"
)

func TestParseChord(t *testing.T) {
	tests := []struct {
		in   string
		key  string
		code string
		mods int
	}{
		{"Enter", "Enter", "Enter", 0},
		{"enter", "Enter", "Enter", 0},
		{"Control+A", "a", "KeyA", modCtrl},
		{"Control+Shift+a", "A", "KeyA", modCtrl | modShift},
		{"Shift+Tab", "Tab", "Tab", modShift},
		{"ArrowDown", "ArrowDown", "ArrowDown", 0},
		{"Esc", "Escape", "Escape", 0},
		{"ControlOrMeta+c", "c", "KeyC", modCtrl},
		{"+", "+", "Equal", 0},
		{"Control++", "+", "Equal", modCtrl},
		{"F5", "F5", "F5", 0},
		{"é", "é", "", 0},
		{"Space", " ", "Space", 0},
	}
	for _, tc := range tests {
		c, err := parseChord(tc.in)
		if err != nil {
			t.Errorf("parseChord(%q): %v", tc.in, err)
			continue
		}
		got := []any{c.key.Key, c.key.Code, c.mods}
		if d := cmp.Diff([]any{tc.key, tc.code, tc.mods}, got); d != "" {
			t.Errorf("parseChord(%q) (-want +got):\n%s", tc.in, d)
		}
	}
	for _, bad := range []string{"", "Hyper", "A+Control", "Control+", "Control+Foo", "F99", "++A"} {
		var ae *cdpclient.ArgError
		if _, err := parseChord(bad); !errors.As(err, &ae) {
			t.Errorf("parseChord(%q) = %v, want an cdpclient.ArgError", bad, err)
		}
	}
}

// FuzzParseChord: any key string parses or is refused with an cdpclient.ArgError that has
// a hint; never a panic.
func FuzzParseChord(f *testing.F) {
	for _, s := range []string{"Enter", "Control+A", "Shift+Control+ArrowLeft", "+", "Control++", "a", "é", "F12", "", "++", "Meta+Shift+z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseChord(s)
		if err != nil {
			var ae *cdpclient.ArgError
			if !errors.As(err, &ae) || ae.Hint == "" {
				t.Fatalf("parseChord(%q): %v (%T)", s, err, err)
			}
			return
		}
		if c.key.Key == "" {
			t.Fatalf("parseChord(%q) gave an empty key", s)
		}
		_ = editCommands(c)
	})
}
