package snapshot

import "fmt"

// Long lists and tables: which belong to the article, and how one is
// shortened while what is on screen stays.

// viewMargin is how many lines either side of what is on screen a shortened
// list keeps, so the items just scrolled past are there too.
const viewMargin = 2

// articleLists splits lists into those outside the article and those of the
// article: inside the main text, with at least half as much of the article
// around them as they cost (a Wikipedia article's references; not a feed or a
// catalogue that is the whole page).
func (f *fitter) articleLists(lists []Group) (outside, inside []Group) {
	main := f.m.Main
	if main.Len() == 0 {
		return lists, nil
	}
	mainCost := f.spanCost(Span{From: max(main.From, f.from), To: min(main.To, len(f.m.Lines))})
	for _, g := range lists {
		cost := f.spanCost(g.Span)
		if g.From >= main.From && g.To <= main.To && mainCost-cost >= cost/2 {
			inside = append(inside, g)
		} else {
			outside = append(outside, g)
		}
	}
	return outside, inside
}

// shorten keeps a long list's first lines, up to keep tokens, the lines on
// screen (with viewMargin either side) and its last; each run left out is
// counted in a marker that says where it starts.
func (f *fitter) shorten(g Group, keep int) {
	head, used := g.From, 0
	for head < g.To-1 && (head-g.From < 3 || used+f.cost[head] <= keep) {
		used += f.cost[head]
		head++
	}
	kept := func(i int) bool { return i == g.To-1 || f.nearView(i) }
	noun := "items"
	if g.Kind == "table" {
		noun = "rows"
	}
	for i := head; i < g.To; {
		if kept(i) {
			i++
			continue
		}
		j := i
		for j < g.To && !kept(j) {
			j++
		}
		if j-i >= 2 {
			f.elide(i, j, fmt.Sprintf(ContextPrefix+"… %d more %s in %s: snapshot {from: %d}", j-i, noun, where(g), i))
		}
		i = j
	}
}

// nearView reports whether line i is on screen or within viewMargin lines of it.
func (f *fitter) nearView(i int) bool {
	for _, v := range f.m.View {
		if i >= v.From-viewMargin && i < v.To+viewMargin {
			return true
		}
	}
	return false
}
