package secrets

import (
	"sync"
)

// A value entered into a page is the page's own word where the page showed
// it before (Entry.Old): the same holds for every text the tenant was given
// before the value was entered. A password "news" or "2015" typed into a
// sign-in form cannot be what "BBC News" or "March 18, 2015" on a page read
// before it echoes: so where the value stands between the same words as in
// an answer given out before it was entered, it stays as it was, and a page
// read before a sign-in reads the same after it. An echo in other words is
// masked as before, and a text is kept only as it was given out (redacted),
// so an echo of a value already known never makes it a page's word when it
// is entered again.

// historyBytes bounds the answers a registry keeps to tell a page's words
// from an echo: the latest ones, a few large pages' worth.
const historyBytes = 4 << 20

// shownLines bounds the lines of past answers an entered value takes as the
// page's words.
const shownLines = 256

// history is what a registry gave out lately, redacted, oldest first.
type history struct {
	mu    sync.Mutex
	texts []string
	size  int
}

// Saw keeps text, an answer as it was given out (redacted), as one the
// tenant read: a value entered later that stands in it between the same
// words is the page's word there, not an echo (history.go).
func (r *Registry) Saw(text string) {
	if r == nil || len(text) < MinLen {
		return
	}
	if len(text) > historyBytes {
		text = text[len(text)-historyBytes:]
	}
	h := &r.seen
	h.mu.Lock()
	defer h.mu.Unlock()
	h.texts = append(h.texts, text)
	h.size += len(text)
	for h.size > historyBytes {
		h.size -= len(h.texts[0])
		h.texts[0] = ""
		h.texts = h.texts[1:]
	}
}

// shownBefore are the lines of the answers r gave out that hold v, each cut
// to lineReach bytes either side of it: what entering v adds to the words
// the page showed (Entry.Old).
func (r *Registry) shownBefore(v string) []string {
	h := &r.seen
	h.mu.Lock()
	texts := append([]string(nil), h.texts...)
	h.mu.Unlock()
	if len(texts) == 0 {
		return nil
	}
	m := newMatcher([]known{{v, entry{plain: true}}})
	if m == nil {
		return nil
	}
	// The value as it stands in text, not encoded: a page's words are
	// written plainly (an encoded echo is no word of the page's).
	probe := &matcher{needles: m.needles[:1], perNeedle: true}
	anchor := m.needles[0].anchor
	var out []string
	seen := map[string]bool{}
	for i := len(texts) - 1; i >= 0 && len(out) < shownLines; i-- {
		b := []byte(texts[i])
		if anchor != nil && !containsLower(b, anchor) {
			continue
		}
		probe.search(&view{b: b, words: true}, func(s span, _ kind) {
			if len(out) == shownLines {
				return
			}
			if line := lineAround(b, s); !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		})
	}
	return out
}

// lineAround is the line of b that holds s, lineReach bytes either side of
// it at most (wholeLines).
func lineAround(b []byte, s span) string {
	w := wholeLines(b, s)
	return string(b[w.a:w.b])
}
