package snapshot

import (
	"fmt"
	"strings"
)

// The ways fitting leaves lines out, each with the marker line that says what
// it left out and how to get it.

// summarise keeps a chrome group's first lines (and a footer's or a plain
// group's last) and counts the rest.
func (f *fitter) summarise(g Group) {
	if g.Len() < 3 {
		f.shortenLine(g)
		return
	}
	head, used := g.From, 0
	for head < g.To && head-g.From < 2 && (head == g.From || used+f.cost[head] <= 40) {
		used += f.cost[head]
		head++
	}
	tail := g.To
	if (g.Kind == "footer" || g.Kind == "links") && f.cost[g.To-1] <= 40 {
		tail-- // a footer's last line holds its legal links, a group's its range
	}
	if tail-head < 2 {
		return
	}
	what := f.count(head, tail)
	m := fmt.Sprintf(ContextPrefix+"… %s in %s: snapshot {ref: %d}", what, where(g), g.Ref)
	saved := 0
	for i := head; i < tail; i++ {
		saved += f.cost[i]
	}
	if saved > lineCost(m)+10 {
		f.elide(head, tail, m)
	}
}

// shortenLine shortens a group of one or two lines that hold a link farm (a
// paragraph of a thousand names) to its first elements in the first line.
func (f *fitter) shortenLine(g Group) {
	const keep = 8
	l := f.m.Lines[g.From]
	es := elements(l)
	total := len(es)
	for _, rest := range f.m.Lines[g.From+1 : g.To] {
		total += len(elements(rest))
	}
	if len(es) <= keep || total-keep < 10 {
		return
	}
	end := 0
	for _, e := range es[:keep] {
		end += strings.Index(l[end:], e) + len(e)
	}
	short := l[:end] + fmt.Sprintf(" … %d more elements in %s: snapshot {ref: %d}", total-keep, where(g), g.Ref)
	for i := g.From; i < g.To; i++ {
		if !f.drop[i] {
			f.drop[i] = true
			f.total -= f.cost[i]
		}
	}
	f.drop[g.From] = false
	f.edited[g.From] = short
	f.cost[g.From] = lineCost(short)
	f.total += f.cost[g.From]
}

// count says what lines [from, to) hold: "43 more links", "5 more elements and
// 12 text lines", "30 more lines".
func (f *fitter) count(from, to int) string {
	elems, text := 0, 0
	tags := map[string]int{}
	for _, l := range f.m.Lines[from:to] {
		es := elements(l)
		elems += len(es)
		for _, e := range es {
			tag := e[strings.Index(e, "[:]<")+4:]
			tag = tag[:strings.IndexAny(tag, " >")]
			tags[tag]++
		}
		if len(es) == 0 {
			text++
		}
	}
	noun := "elements"
	switch {
	case elems == 0:
		return fmt.Sprintf("%d more %s", to-from, plural(to-from, "line"))
	case tags["a"] == elems:
		noun = plural(elems, "link")
	case tags["button"] == elems:
		noun = plural(elems, "button")
	case elems == 1:
		noun = "element"
	}
	if text == 0 {
		return fmt.Sprintf("%d more %s", elems, noun)
	}
	return fmt.Sprintf("%d more %s and %d text %s", elems, noun, text, plural(text, "line"))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// where names a group in a marker: "this menu", "these comments".
func where(g Group) string {
	switch g.Kind {
	case "links":
		return "this group"
	case "comments", "tags":
		return "these " + g.Kind
	case "search":
		return "this search form"
	}
	return "this " + g.Kind
}
