package snapshot

import (
	"fmt"
	"sort"
)

// The last ways fitting leaves lines out, once chrome and lists are summarised:
// text outside the main text, then the end of the page; neither takes what is
// on screen.

// elideOutsideMain leaves out runs of text lines outside the main text, the
// longest first.
func (f *fitter) elideOutsideMain(budget int) {
	main := f.m.Main
	if main.Len() == 0 {
		return
	}
	var runs []Span
	start := -1
	for i := f.from; i <= len(f.m.Lines); i++ {
		if i < len(f.m.Lines) && !main.contains(i) && !f.drop[i] && !f.m.inView(i) && pureText(f.m.Lines[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 2 {
			runs = append(runs, Span{start, i})
		}
		start = -1
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Len() > runs[j].Len() })
	for _, r := range runs {
		if f.total <= budget {
			return
		}
		f.elide(r.From, r.To, fmt.Sprintf(ContextPrefix+"… %d more lines of text: snapshot {from: %d}", r.Len(), r.From))
	}
}

// cutTail keeps lines from the start while they fit, and the lines on screen
// wherever they are, and says where each run left out continues. The first
// line is kept whatever it costs, so that a marker's {from} always moves on:
// a budget smaller than one line would otherwise send a reader back to the
// line it started from, again and again.
func (f *fitter) cutTail(budget int) {
	reserve := 30 // for the closing line
	screen := f.screenCost()
	keepView := screen > 0 && screen <= budget/2
	used := 0
	if keepView {
		used = screen
		reserve = 30 * min(1+len(f.m.View), 5) // a marker before each run on screen, one after
	}
	onScreen := func(i int) bool { return keepView && f.m.inView(i) }
	shown := false
	for i := f.from; i < len(f.m.Lines); i++ {
		if m, ok := f.marker[i]; ok {
			used += lineCost(m)
		}
		if f.drop[i] || onScreen(i) {
			shown = shown || onScreen(i)
			continue
		}
		used += f.cost[i]
		if used <= budget-reserve || !shown {
			shown = true
			continue
		}
		f.cutFrom(i, onScreen)
		return
	}
}

// cutFrom leaves out the lines from i on but those kept, a marker for each run.
func (f *fitter) cutFrom(i int, kept func(int) bool) {
	n := len(f.m.Lines)
	for a := i; a < n; {
		if kept(a) {
			a++
			continue
		}
		b := a
		rest := 0
		for b < n && !kept(b) {
			rest += lineCost(f.m.Lines[b])
			b++
		}
		f.elide(a, b, fmt.Sprintf(ContextPrefix+"… %s follow (about %d tokens): snapshot {from: %d}", f.count(a, b), rest, a))
		a = b
	}
}

// screenCost is what the lines on screen that are still shown cost.
func (f *fitter) screenCost() int {
	n := 0
	for _, v := range f.m.View {
		for i := max(v.From, f.from); i < min(v.To, len(f.m.Lines)); i++ {
			if !f.drop[i] {
				n += f.cost[i]
			}
		}
	}
	return n
}
