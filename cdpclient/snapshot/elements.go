package snapshot

import "strings"

// elements returns the rendered elements inside a line, N[:]<tag …>name</tag>, in
// order. It is a hand-written form of the pattern
// `\d+\[:\]<[a-z][\w-]*[^>]*>.*?</[a-z][\w-]*>` (leftmost, non-overlapping;
// FuzzElements holds it to that), which cost a regexp most of a snapshot's
// fitting time on large pages.
func elements(l string) []string {
	var out []string
	nl := newlines{s: l, next: -2}
	for i := 0; i < len(l); {
		k := strings.Index(l[i:], "[:]<")
		if k < 0 {
			break
		}
		k += i
		start := k
		for start > i && isDigit(l[start-1]) {
			start--
		}
		open := k + len("[:]<")
		if start == k || open >= len(l) || !isLower(l[open]) {
			i = k + 1
			continue
		}
		gt := strings.IndexByte(l[open:], '>')
		if gt < 0 {
			break // no element can close from here on
		}
		from := open + gt + 1
		limit := nl.after(from) // the name cannot span lines
		end := closing(l[:limit], from)
		if end < 0 {
			if limit == len(l) {
				break // no later element can close either
			}
			i = k + 1
			continue
		}
		out = append(out, l[start:end])
		i = end
	}
	return out
}

// newlines finds the next newline at or after a position that only grows.
type newlines struct {
	s    string
	next int // -2 unknown, -1 none left
}

func (n *newlines) after(p int) int {
	if n.next == -2 || (n.next >= 0 && n.next < p) {
		if j := strings.IndexByte(n.s[p:], '\n'); j < 0 {
			n.next = -1
		} else {
			n.next = p + j
		}
	}
	if n.next < 0 {
		return len(n.s)
	}
	return n.next
}

// closing returns the end of the first "</tag>" in l at or after i, or -1.
func closing(l string, i int) int {
	for {
		m := strings.Index(l[i:], "</")
		if m < 0 {
			return -1
		}
		j := i + m + 2
		if j < len(l) && isLower(l[j]) {
			j++
			for j < len(l) && (isWord(l[j]) || l[j] == '-') {
				j++
			}
			if j < len(l) && l[j] == '>' {
				return j + 1
			}
		}
		i += m + 2
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isWord(c byte) bool  { return isDigit(c) || isLower(c) || (c >= 'A' && c <= 'Z') || c == '_' }

// ElementRefs returns the refs of the elements the lines show (element lines and
// elements inside context lines): what a model can act on.
func ElementRefs(lines []string) map[int]bool {
	out := map[int]bool{}
	for _, l := range lines {
		if r := Ref(l); r > 0 {
			out[r] = true
		}
		for _, e := range elements(l) {
			if r := Ref(e); r > 0 {
				out[r] = true
			}
		}
	}
	return out
}
