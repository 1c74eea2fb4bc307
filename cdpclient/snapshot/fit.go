package snapshot

import (
	"fmt"
	"sort"
	"strings"
)

// The default snapshot's policy: chrome is summarised and a long list shows
// about ListTokens of its items; the main text is shown whole up to
// DefaultTokens, and what follows is deferred to a continuation.
const (
	// DefaultTokens is the default snapshot's budget.
	DefaultTokens = 14000
	// SmallPage is the cost up to which a default snapshot summarises nothing.
	SmallPage = 1500
	// LongList is how many items (or rows) make a list long, and ListTokens
	// what a long list may cost in a default snapshot. Shorter lists (a
	// Wikipedia article's references, a dashboard's 50 invoices) are shown
	// whole unless the budget is short.
	LongList   = 100
	ListTokens = 2000
	// CommentTokens is what comments may cost before a default snapshot
	// summarises them: a few are read with the article, hundreds are not.
	CommentTokens = 800
)

// Budget says how much of a page a snapshot shows.
type Budget struct {
	// Tokens is the most the lines may cost, in estimated tokens; ≤ 0 means no
	// limit.
	Tokens int
	// Summarise summarises chrome and long lists even when the lines fit (the
	// default snapshot), not only to meet Tokens.
	Summarise bool
	// From is the first line to show (a continuation); the lines before it are
	// left out.
	From int
}

// Fit makes a page's lines fit a budget and says in marker lines what it left
// out and how to get it. The reading text is the last thing given up, and what
// is on screen (Model.View) stays:
//  1. chrome (menus, headers, footers, sidebars, link lists) keeps its first
//     lines and a count: "… 43 more links in this menu: snapshot {ref: 12}";
//  2. a long list or table outside the article keeps its first items, those on
//     screen and its last;
//  3. runs of text outside the main text are left out;
//  4. lists and tables of the article (its references, a filmography) are
//     shortened only as far as the budget needs;
//  5. only then is the rest cut off at the end, with the line to continue
//     from: "… 812 more lines (…): snapshot {from: 1200}".
func Fit(m Model, b Budget) []string {
	f := newFitter(m, b.From)
	if b.Tokens <= 0 && !b.Summarise {
		return f.assemble()
	}
	over := func() bool { return b.Tokens > 0 && f.total > b.Tokens }
	summarise := b.Summarise && f.total > SmallPage
	chrome, lists := f.groups()
	if summarise {
		for _, g := range chrome {
			if g.Kind != "comments" || f.spanCost(g.Span) > CommentTokens {
				f.summarise(g)
			}
		}
	} else {
		byCost(f, chrome)
		for _, g := range chrome {
			if !over() {
				break
			}
			f.summarise(g)
		}
	}
	outside, inside := f.articleLists(lists)
	if summarise {
		for _, g := range outside {
			if g.Len() >= LongList {
				f.shorten(g, ListTokens)
			}
		}
	}
	byCost(f, outside)
	for _, g := range outside {
		if !over() {
			break
		}
		f.shorten(g, max(ListTokens/4, f.cost[g.From]))
	}
	if over() {
		f.elideOutsideMain(b.Tokens)
	}
	byCost(f, inside)
	for _, g := range inside {
		if !over() {
			break
		}
		f.shorten(g, max(ListTokens/4, f.cost[g.From], f.spanCost(g.Span)-(f.total-b.Tokens)))
	}
	if over() {
		f.cutTail(b.Tokens)
	}
	return f.assemble()
}

// lineCost is what a line costs in a snapshot: its tokens and the newline.
func lineCost(l string) int { return Estimate(l) + 1 }

type fitter struct {
	m      Model
	from   int
	cost   []int
	drop   []bool
	marker map[int]string // shown in place of the dropped run that starts here
	edited map[int]string // lines shown shortened
	total  int            // cost of the lines kept and the markers
	end    string         // a last line: where a partial model stops
}

func newFitter(m Model, from int) *fitter {
	from = min(max(from, 0), len(m.Lines))
	f := &fitter{m: m, from: from, cost: make([]int, len(m.Lines)), drop: make([]bool, len(m.Lines)), marker: map[int]string{}, edited: map[int]string{}}
	if m.Partial {
		f.end = fmt.Sprintf(ContextPrefix+"… the page is larger than a snapshot reads in one call: %d lines read so far; snapshot {from: %d} reads on", len(m.Lines), len(m.Lines))
		f.total += lineCost(f.end)
	}
	for i, l := range m.Lines {
		if i < from {
			f.drop[i] = true
			continue
		}
		f.cost[i] = lineCost(l)
		f.total += f.cost[i]
	}
	return f
}

// groups returns the outermost chrome groups and the lists outside them, in
// page order, clipped to the lines shown.
func (f *fitter) groups() (chrome, lists []Group) {
	gs := make([]Group, 0, len(f.m.Groups))
	for _, g := range f.m.Groups {
		g.From = max(g.From, f.from)
		g.To = min(g.To, len(f.m.Lines))
		if g.Len() > 0 {
			gs = append(gs, g)
		}
	}
	sort.SliceStable(gs, func(i, j int) bool {
		if gs[i].From != gs[j].From {
			return gs[i].From < gs[j].From
		}
		return gs[i].To > gs[j].To
	})
	covered := -1 // lines before this are inside a chrome group
	for _, g := range gs {
		if g.Chrome() && g.From >= covered {
			chrome = append(chrome, g)
			covered = g.To
		}
	}
	covered = -1
	inChrome := func(g Group) bool {
		for _, c := range chrome {
			if g.From >= c.From && g.To <= c.To {
				return true
			}
		}
		return false
	}
	for _, g := range gs {
		if !g.Chrome() && g.From >= covered && !inChrome(g) {
			lists = append(lists, g) // the outermost list; nested ones go with it
			covered = g.To
		}
	}
	return chrome, lists
}

// byCost sorts groups by what they cost, the most first.
func byCost(f *fitter, gs []Group) {
	cost := make(map[Span]int, len(gs))
	for _, g := range gs {
		cost[g.Span] = f.spanCost(g.Span)
	}
	sort.SliceStable(gs, func(i, j int) bool { return cost[gs[i].Span] > cost[gs[j].Span] })
}

// spanCost is what the lines of s cost.
func (f *fitter) spanCost(s Span) int {
	n := 0
	for i := s.From; i < s.To; i++ {
		n += f.cost[i]
	}
	return n
}

// elide leaves out lines [from, to) and shows marker in their place.
func (f *fitter) elide(from, to int, marker string) {
	for i := from; i < to; i++ {
		if m, ok := f.marker[i]; ok {
			f.total -= lineCost(m)
			delete(f.marker, i)
		}
		if !f.drop[i] {
			f.drop[i] = true
			f.total -= f.cost[i]
		}
	}
	f.marker[from] = marker
	f.total += lineCost(marker)
}

func pureText(l string) bool {
	return Ref(l) == 0 && !isHeading(l) && !strings.Contains(l, "[:]<")
}

// assemble returns the lines kept, with the markers in place of those left out.
func (f *fitter) assemble() []string {
	out := make([]string, 0, len(f.m.Lines))
	for i, l := range f.m.Lines {
		if m, ok := f.marker[i]; ok {
			out = append(out, m)
		}
		if e, ok := f.edited[i]; ok && !f.drop[i] {
			out = append(out, e)
		} else if !f.drop[i] {
			out = append(out, l)
		}
	}
	if f.end != "" {
		out = append(out, f.end)
	}
	return out
}

// FitLines fits lines that carry no page structure (a diff) into budget.
func FitLines(lines []string, budget int) []string {
	return Fit(Model{Lines: lines}, Budget{Tokens: budget})
}
