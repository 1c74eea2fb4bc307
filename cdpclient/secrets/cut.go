package secrets

import (
	"strings"
	"sync"
	"unicode/utf8"
	"weak"
)

// Every registry of the process, so that a cut made anywhere (a feedback
// line, a long answer) can keep clear of what any of them knows.
var live struct {
	sync.Mutex
	regs []weak.Pointer[Registry]
}

func register(r *Registry) {
	live.Lock()
	defer live.Unlock()
	kept := live.regs[:0]
	for _, w := range live.regs {
		if w.Value() != nil {
			kept = append(kept, w)
		}
	}
	live.regs = append(kept, weak.Make(r))
}

func matchers() []*matcher {
	live.Lock()
	defer live.Unlock()
	var out []*matcher
	for _, w := range live.regs {
		if m := w.Value().matcher(); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// Cut returns where to cut s to keep at most its first n bytes without
// splitting a secret any registry knows (or a Mask, or a character): n, or
// the start of what it would split.
func Cut(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	// A Mask already there.
	if i := strings.LastIndex(s[max(0, n-len(Mask)+1):n], "["); i >= 0 {
		at := max(0, n-len(Mask)+1) + i
		if strings.HasPrefix(s[at:], Mask) && at+len(Mask) > n {
			n = at
		}
	}
	ms := matchers()
	if len(ms) == 0 {
		return n
	}
	b := []byte(s)
	for _, m := range ms {
		for _, sp := range m.find(b) {
			if sp.a < n && sp.b > n {
				n = sp.a
			}
		}
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// CutRunes is Cut for a limit of n characters: the byte index to cut at.
func CutRunes(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return Cut(s, i)
}
