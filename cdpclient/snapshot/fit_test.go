package snapshot

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// page builds a model: a menu of 40 links, an article of n paragraphs with a
// list of items in it, and a footer of 30 links with a legal line.
func page(paragraphs, items int) Model {
	var m Model
	add := func(l string) { m.Lines = append(m.Lines, l) }
	ref := 0
	next := func() int { ref++; return ref }
	menu := Group{Span: Span{From: len(m.Lines)}, Ref: next(), Kind: "menu"}
	for i := range 40 {
		add(fmt.Sprintf("%d[:]<a>Section %d</a>", next(), i))
	}
	menu.To = len(m.Lines)
	m.Main.From = len(m.Lines)
	add("_[:]# The article")
	for i := range paragraphs {
		add(fmt.Sprintf("_[:]Paragraph %d says a great many things at length about nothing in particular, with a %d[:]<a>link %d</a> in it.", i, next(), i))
	}
	list := Group{Span: Span{From: len(m.Lines)}, Ref: next(), Kind: "list"}
	for i := range items {
		add(fmt.Sprintf("_[:]Item %d: some words here", i))
	}
	list.To = len(m.Lines)
	add("_[:]The last paragraph of the article.")
	m.Main.To = len(m.Lines)
	footer := Group{Span: Span{From: len(m.Lines)}, Ref: next(), Kind: "footer"}
	for i := range 30 {
		add(fmt.Sprintf("%d[:]<a>Footer link %d</a>", next(), i))
	}
	add(fmt.Sprintf("_[:]© 2024 %d[:]<a>Terms</a>", next()))
	footer.To = len(m.Lines)
	m.Groups = []Group{menu, list, footer}
	return m
}

var markerRe = regexp.MustCompile(`^_\[:\]… (\d+) more (\w+)`)

// shown counts the lines of the model that the fitted lines show, and the
// lines (or elements) the markers say they stand for.
func shown(out []string) (lines int, counted map[string]int) {
	counted = map[string]int{}
	for _, l := range out {
		if m := markerRe.FindStringSubmatch(l); m != nil {
			var n int
			fmt.Sscan(m[1], &n)
			counted[m[2]] += n
			continue
		}
		lines++
	}
	return lines, counted
}

func TestFitDefaultSummarisesChromeOnly(t *testing.T) {
	m := page(30, 10)
	out := Fit(m, Budget{Tokens: DefaultTokens, Summarise: true})
	text := strings.Join(out, "\n")
	for i := range 30 {
		if !strings.Contains(text, fmt.Sprintf("Paragraph %d says", i)) {
			t.Errorf("paragraph %d is missing", i)
		}
	}
	for _, want := range []string{"Item 9:", "The last paragraph", "Section 0<", "more links in this menu: snapshot {ref: 1}", "more links in this footer: snapshot {ref: ", "<a>Terms</a>"} {
		if !strings.Contains(text, want) {
			t.Errorf("fitted lacks %q:\n%s", want, text)
		}
	}
	n, counted := shown(out)
	if n+counted["links"] != len(m.Lines) {
		t.Errorf("%d lines shown + %d links counted != %d lines", n, counted["links"], len(m.Lines))
	}
	// Without Summarise and with room, nothing is left out.
	if diff := cmp.Diff(m.Lines, Fit(m, Budget{Tokens: DefaultTokens})); diff != "" {
		t.Errorf("a budget with room changed the lines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(m.Lines, Fit(m, Budget{})); diff != "" {
		t.Errorf("no budget changed the lines (-want +got):\n%s", diff)
	}
	// A small page is shown whole.
	small := Model{Lines: m.Lines[:30], Groups: []Group{{Span: Span{0, 30}, Ref: 1, Kind: "menu"}}}
	if got := Fit(small, Budget{Tokens: DefaultTokens, Summarise: true}); len(got) != 30 {
		t.Errorf("small page: %d lines, want 30", len(got))
	}
}

func TestFitShortensLongLists(t *testing.T) {
	m := page(5, 1000)
	out := Fit(m, Budget{Tokens: DefaultTokens, Summarise: true})
	text := strings.Join(out, "\n")
	if got := lineTokens(out); got > ListTokens+1500 {
		t.Errorf("a page with a 1000-item list costs %d", got)
	}
	for _, want := range []string{"Item 0:", "Item 999:", "Paragraph 4 says", "The last paragraph", "more items in this list: snapshot {from: "} {
		if !strings.Contains(text, want) {
			t.Errorf("fitted lacks %q", want)
		}
	}
	n, counted := shown(out)
	if n+counted["links"]+counted["items"] != len(m.Lines) {
		t.Errorf("%d shown + %v counted != %d", n, counted, len(m.Lines))
	}
	// The continuation starts where the marker says and shows what was left out.
	from := -1
	for _, l := range out {
		if n, ok := fromOf(l); ok && strings.Contains(l, "items") {
			from = n
		}
	}
	next := Fit(m, Budget{Tokens: DefaultTokens, Summarise: true, From: from})
	if next[0] != m.Lines[from] {
		t.Errorf("continuation starts with %q, want %q", next[0], m.Lines[from])
	}
}

func TestFitCutsMainTextLastAndSaysWhere(t *testing.T) {
	m := page(400, 10)
	budget := 3000
	out := Fit(m, Budget{Tokens: budget, Summarise: true})
	if got := lineTokens(out); got > budget {
		t.Errorf("fit to %d uses %d", budget, got)
	}
	last := out[len(out)-1]
	from, ok := fromOf(last)
	if !ok || !strings.Contains(last, "follow") {
		t.Fatalf("last line %q", last)
	}
	// Chrome went first: the menu is summarised, the text runs unbroken up to
	// the cut, and the continuation picks up at the first line not shown.
	if !strings.Contains(strings.Join(out, "\n"), "more links in this menu") {
		t.Error("the menu was not summarised before the text was cut")
	}
	if !strings.Contains(out[len(out)-2], "Paragraph") || m.Lines[from-1] != out[len(out)-2] {
		t.Errorf("cut at %d, but the line before it is %q", from, out[len(out)-2])
	}
	// Following the continuations shows every paragraph exactly once.
	seen := map[string]int{}
	for from, pages := 0, 0; pages < 50; pages++ {
		out := Fit(m, Budget{Tokens: budget, Summarise: true, From: from})
		next := -1
		for _, l := range out {
			if strings.HasPrefix(l, "_[:]Paragraph") {
				seen[l]++
			}
			if n, ok := fromOf(l); ok && strings.Contains(l, "follow") {
				next = n
			}
		}
		if next < 0 {
			break
		}
		from = next
	}
	if len(seen) != 400 {
		t.Errorf("continuations showed %d of 400 paragraphs", len(seen))
	}
	for l, n := range seen {
		if n != 1 {
			t.Errorf("%q shown %d times", l, n)
		}
	}
}

func TestFitLinkFarmLine(t *testing.T) {
	var names []string
	for i := range 500 {
		names = append(names, fmt.Sprintf("%d[:]<a>reader%d</a>", i+2, i))
	}
	m := Model{Lines: []string{"_[:]# Kudos", "_[:]" + strings.Join(names, ", ")}, Groups: []Group{{Span: Span{1, 2}, Ref: 1, Kind: "links"}}}
	for range 20 {
		m.Lines = append(m.Lines, "_[:]Some text of the page that is long enough to matter.")
	}
	out := Fit(m, Budget{Tokens: DefaultTokens, Summarise: true})
	if !strings.HasSuffix(out[1], "<a>reader7</a> … 492 more elements in this group: snapshot {ref: 1}") {
		t.Errorf("farm line = %q", out[1])
	}
}

func TestSplice(t *testing.T) {
	m := Model{Lines: []string{"a", "b", "_[:]iframe:", "c", "d"}, Main: Span{1, 4}, Groups: []Group{{Span: Span{2, 3}, Kind: "menu"}, {Span: Span{3, 5}, Kind: "footer"}}}
	m.Splice(3, Model{Lines: []string{"x", "y"}, Main: Span{0, 2}, Groups: []Group{{Span: Span{0, 2}, Kind: "links"}}})
	want := Model{Lines: []string{"a", "b", "_[:]iframe:", "x", "y", "c", "d"}, Main: Span{1, 6},
		Groups: []Group{{Span: Span{2, 5}, Kind: "menu"}, {Span: Span{5, 7}, Kind: "footer"}, {Span: Span{3, 5}, Kind: "links"}}}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("Splice (-want +got):\n%s", diff)
	}
}

// fromOf reads the continuation a marker line names.
func fromOf(l string) (int, bool) {
	i := strings.Index(l, "{from: ")
	if i < 0 {
		return 0, false
	}
	var n int
	_, err := fmt.Sscanf(l[i:], "{from: %d}", &n)
	return n, err == nil
}

// lineTokens is what lines cost in a snapshot.
func lineTokens(lines []string) int {
	n := 0
	for _, l := range lines {
		n += lineCost(l)
	}
	return n
}

// A budget smaller than one line still shows a line, so that following the
// continuations reaches the end of the page: a marker never sends the reader
// back to where it started.
func TestFitTinyBudgetMovesOn(t *testing.T) {
	m := page(20, 0)
	for _, summarise := range []bool{false, true} {
		from, pages := 0, 0
		for ; pages < 400; pages++ {
			out := Fit(m, Budget{Tokens: 5, Summarise: summarise, From: from})
			next := -1
			for _, l := range out {
				if n, ok := fromOf(l); ok && strings.Contains(l, "follow") {
					next = n
				}
			}
			if next < 0 {
				break
			}
			if next <= from {
				t.Fatalf("summarise %t: from %d continues from %d: %q", summarise, from, next, out)
			}
			from = next
		}
		if pages == 400 {
			t.Errorf("summarise %t: 400 continuations did not reach the end", summarise)
		}
	}
}
