// Package snapshot holds the pure parts of the page model: the token estimate,
// fitting a page into a token budget (the reading text kept, chrome and long
// lists summarised, the rest deferred to a continuation, every omission said in
// a marker line), diffs between snapshots, and the reading measure the corpus
// tests use. It works on rendered lines ("12[:]<button>Save</button>",
// "_[:]text") with what the page script says about them (Model) and needs no
// browser.
package snapshot

import (
	"fmt"
	"strconv"
	"strings"
)

// ContextPrefix starts every line that is context rather than an element.
const ContextPrefix = "_[:]"

// Ref returns the ref a line starts with ("12[:]<…" → 12), or 0 for context lines.
func Ref(line string) int {
	i := strings.Index(line, "[:]")
	if i <= 0 {
		return 0
	}
	n, err := strconv.Atoi(line[:i])
	if err != nil {
		return 0
	}
	return n
}

// isHeading reports whether a line is a heading ("14[:]## Title").
func isHeading(line string) bool {
	_, ok := Heading(line)
	return ok
}

// Heading returns a heading line's text ("14[:]## Title" → "Title"). A
// heading's ref is the heading's, or the section's it names (a board's column).
func Heading(line string) (string, bool) {
	i := strings.Index(line, "[:]")
	if i < 0 || !strings.HasPrefix(line[i:], "[:]#") || (line[:i] != "_" && Ref(line) == 0) {
		return "", false
	}
	return strings.TrimSpace(strings.TrimLeft(line[i+3:], "#")), true
}

// Header is the first line of a snapshot: page id, title and URL, and how much of
// the page lies outside the viewport.
func Header(page, title, url string, above, below int) string {
	h := fmt.Sprintf("page %s %q %s", page, title, url)
	switch {
	case above > 0 && below > 0:
		h += fmt.Sprintf(" (%dpx more above, %dpx below)", above, below)
	case below > 0:
		h += fmt.Sprintf(" (%dpx more below)", below)
	case above > 0:
		h += fmt.Sprintf(" (%dpx more above)", above)
	}
	return h
}

// HeaderTitle reads the title back from a snapshot's first line (Header's),
// so a caller holding a snapshot need not ask the page again.
func HeaderTitle(header string) (string, bool) {
	rest, ok := strings.CutPrefix(header, "page ")
	if !ok {
		return "", false
	}
	_, rest, ok = strings.Cut(rest, " ")
	if !ok {
		return "", false
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return "", false
	}
	title, err := strconv.Unquote(q)
	return title, err == nil
}
