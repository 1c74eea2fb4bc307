package input

import (
	"strings"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/inputnames"
)

// keyDef describes one key of a US keyboard as DOM and Windows name it.
type keyDef struct {
	Key      string // DOM key value, e.g. "Enter", "a"
	Code     string // DOM code, e.g. "Enter", "KeyA"
	KeyCode  int    // Windows virtual key code
	Text     string // text the key types, if any
	Shifted  string // key value with Shift held, for printable keys
	Location int    // 1 left, 2 right, 3 numpad
}

// Modifier bits as CDP's Input domain numbers them.
const (
	modAlt   = 1
	modCtrl  = 2
	modMeta  = 4
	modShift = 8
)

var namedKeys = map[string]keyDef{
	"Enter":       {Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"},
	"Tab":         {Key: "Tab", Code: "Tab", KeyCode: 9},
	"Backspace":   {Key: "Backspace", Code: "Backspace", KeyCode: 8},
	"Delete":      {Key: "Delete", Code: "Delete", KeyCode: 46},
	"Escape":      {Key: "Escape", Code: "Escape", KeyCode: 27},
	"Space":       {Key: " ", Code: "Space", KeyCode: 32, Text: " "},
	"ArrowUp":     {Key: "ArrowUp", Code: "ArrowUp", KeyCode: 38},
	"ArrowDown":   {Key: "ArrowDown", Code: "ArrowDown", KeyCode: 40},
	"ArrowLeft":   {Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37},
	"ArrowRight":  {Key: "ArrowRight", Code: "ArrowRight", KeyCode: 39},
	"Home":        {Key: "Home", Code: "Home", KeyCode: 36},
	"End":         {Key: "End", Code: "End", KeyCode: 35},
	"PageUp":      {Key: "PageUp", Code: "PageUp", KeyCode: 33},
	"PageDown":    {Key: "PageDown", Code: "PageDown", KeyCode: 34},
	"Insert":      {Key: "Insert", Code: "Insert", KeyCode: 45},
	"ContextMenu": {Key: "ContextMenu", Code: "ContextMenu", KeyCode: 93},
	"CapsLock":    {Key: "CapsLock", Code: "CapsLock", KeyCode: 20},
	"Shift":       {Key: "Shift", Code: "ShiftLeft", KeyCode: 16, Location: 1},
	"Control":     {Key: "Control", Code: "ControlLeft", KeyCode: 17, Location: 1},
	"Alt":         {Key: "Alt", Code: "AltLeft", KeyCode: 18, Location: 1},
	"Meta":        {Key: "Meta", Code: "MetaLeft", KeyCode: 91, Location: 1},
}

// keyAliases maps other common spellings to the names above (lower case);
// inputnames.Modifier reads the modifiers' own.
var keyAliases = map[string]string{
	"return": "Enter", "esc": "Escape", "del": "Delete", "up": "ArrowUp", "down": "ArrowDown",
	"left": "ArrowLeft", "right": "ArrowRight", "pgup": "PageUp", "pgdn": "PageDown", "spacebar": "Space",
}

// usPunctuation lists the printable keys that are not letters or digits: the
// unshifted character, its code and key code, and the shifted character.
var usPunctuation = []struct {
	plain, shifted string
	code           string
	keyCode        int
}{
	{"`", "~", "Backquote", 192}, {"-", "_", "Minus", 189}, {"=", "+", "Equal", 187},
	{"[", "{", "BracketLeft", 219}, {"]", "}", "BracketRight", 221}, {"\\", "|", "Backslash", 220},
	{";", ":", "Semicolon", 186}, {"'", "\"", "Quote", 222}, {",", "<", "Comma", 188},
	{".", ">", "Period", 190}, {"/", "?", "Slash", 191},
}

var digitShifted = ")!@#$%^&*("

// printableKeys maps each character a US keyboard types to its key and whether
// Shift is needed.
var printableKeys = buildPrintable()

type printable struct {
	def   keyDef
	shift bool
}

func buildPrintable() map[rune]printable {
	m := map[rune]printable{' ': {def: namedKeys["Space"]}}
	for c := 'a'; c <= 'z'; c++ {
		up := c - 'a' + 'A'
		d := keyDef{Key: string(c), Code: "Key" + string(up), KeyCode: int(up), Text: string(c), Shifted: string(up)}
		m[c] = printable{def: d}
		ds := d
		ds.Key, ds.Text = string(up), string(up)
		m[up] = printable{def: ds, shift: true}
	}
	for i := range 10 {
		c := rune('0' + i)
		d := keyDef{Key: string(c), Code: "Digit" + string(c), KeyCode: int(c), Text: string(c), Shifted: string(digitShifted[i])}
		m[c] = printable{def: d}
		ds := d
		ds.Key, ds.Text = d.Shifted, d.Shifted
		m[rune(digitShifted[i])] = printable{def: ds, shift: true}
	}
	for _, p := range usPunctuation {
		d := keyDef{Key: p.plain, Code: p.code, KeyCode: p.keyCode, Text: p.plain, Shifted: p.shifted}
		m[rune(p.plain[0])] = printable{def: d}
		ds := d
		ds.Key, ds.Text = p.shifted, p.shifted
		m[rune(p.shifted[0])] = printable{def: ds, shift: true}
	}
	return m
}

// chord is a parsed key combination such as Control+Shift+ArrowLeft.
type chord struct {
	mods int
	key  keyDef
	// modKeys are the modifier keys to hold, in order.
	modKeys []keyDef
}

// parseChord parses a key name or a chord of names joined by "+", e.g. "Enter",
// "Control+A", "Shift+Tab", "a", "+". Names are case-insensitive for named keys.
func parseChord(s string) (chord, error) {
	if s == "" {
		return chord{}, cdpclient.ArgErrorf("name a key such as Enter, Tab, ArrowDown, Escape or a chord like Control+A", "no key given")
	}
	var parts []string
	if s == "+" {
		parts = []string{"+"}
	} else {
		parts = strings.Split(s, "+")
		// "Control++" means Control and the "+" key.
		if strings.HasSuffix(s, "++") {
			parts = append(parts[:len(parts)-2], "+")
		}
	}
	var c chord
	for i, part := range parts {
		def, mod, err := lookupKey(part)
		if err != nil {
			return chord{}, err
		}
		last := i == len(parts)-1
		if !last {
			if mod == 0 {
				return chord{}, cdpclient.ArgErrorf("put modifiers (Control, Shift, Alt, Meta) before the key, e.g. Control+Shift+K",
					"%q in %q is not a modifier", part, s)
			}
			c.mods |= mod
			c.modKeys = append(c.modKeys, def)
			continue
		}
		c.key = def
	}
	// In a chord, a letter names the physical key: Control+A is Control with "a".
	if len(parts) > 1 && len(c.key.Key) == 1 {
		r := rune(strings.ToLower(c.key.Key)[0])
		if p, ok := printableKeys[r]; ok && r >= 'a' && r <= 'z' {
			c.key = p.def
			if c.mods&modShift != 0 {
				c.key.Key, c.key.Text = c.key.Shifted, c.key.Shifted
			}
		}
	}
	return c, nil
}

func lookupKey(name string) (keyDef, int, error) {
	if name == "" {
		return keyDef{}, 0, cdpclient.ArgErrorf("write chords like Control+A", "empty key name in chord")
	}
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		if p, ok := printableKeys[r]; ok {
			return p.def, 0, nil
		}
		return keyDef{Key: name, Text: name}, 0, nil
	}
	if bit, canon, ok := inputnames.Modifier(name); ok {
		return namedKeys[canon], bit, nil
	}
	canon := name
	if alias, ok := keyAliases[strings.ToLower(name)]; ok {
		canon = alias
	}
	for k, d := range namedKeys {
		if strings.EqualFold(k, canon) {
			return d, 0, nil
		}
	}
	if len(name) >= 2 && (name[0] == 'F' || name[0] == 'f') {
		var n int
		for _, r := range name[1:] {
			if r < '0' || r > '9' {
				n = -1
				break
			}
			n = n*10 + int(r-'0')
		}
		if n >= 1 && n <= 24 {
			f := "F" + name[1:]
			return keyDef{Key: f, Code: f, KeyCode: 111 + n}, 0, nil
		}
	}
	return keyDef{}, 0, cdpclient.ArgErrorf("use a key name such as Enter, Tab, Escape, Backspace, ArrowDown, PageDown, F5, a single character, or a chord like Control+A",
		"%q is not a key name", name)
}

func modifierBit(name string) int {
	switch name {
	case "Alt":
		return modAlt
	case "Control":
		return modCtrl
	case "Meta":
		return modMeta
	case "Shift":
		return modShift
	}
	return 0
}

// editCommands returns the editing commands Chromium should run for a chord, so that
// shortcuts such as Control+A work the same on every platform.
func editCommands(c chord) []string {
	if c.mods&(modCtrl|modMeta) == 0 || c.mods&modAlt != 0 {
		return nil
	}
	switch strings.ToLower(c.key.Key) {
	case "a":
		return []string{"selectAll"}
	case "c":
		return []string{"copy"}
	case "x":
		return []string{"cut"}
	case "v":
		return []string{"paste"}
	case "z":
		if c.mods&modShift != 0 {
			return []string{"redo"}
		}
		return []string{"undo"}
	case "y":
		return []string{"redo"}
	}
	return nil
}
