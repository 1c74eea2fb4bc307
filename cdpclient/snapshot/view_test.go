package snapshot

import (
	"fmt"
	"strings"
	"testing"
)

// feed builds a page that is one long list of n posts (three lines each),
// with the posts from..to on screen.
func feed(n, from, to int) Model {
	var m Model
	m.Lines = append(m.Lines, "_[:]# Feed")
	list := Group{Span: Span{From: 1}, Ref: 1, Kind: "list"}
	for i := 1; i <= n; i++ {
		if i == from {
			m.View = append(m.View, Span{From: len(m.Lines)})
		}
		m.Lines = append(m.Lines, fmt.Sprintf("%d[:]## Post %d", 10+2*i, i),
			fmt.Sprintf("_[:]Post %d says a few words about the harbour and the tide today.", i),
			fmt.Sprintf("%d[:]<button>Like post %d</button>", 11+2*i, i))
		if i == to {
			m.View[0].To = len(m.Lines)
		}
	}
	list.To = len(m.Lines)
	m.Main = Span{From: 0, To: len(m.Lines)}
	m.Groups = []Group{list}
	return m
}

// A long list scrolled to its middle keeps its first items, those on screen
// (with a line either side) and its last, and says where each run left out
// starts.
func TestFitKeepsScreenInLongList(t *testing.T) {
	m := feed(160, 95, 97)
	out := Fit(m, Budget{Tokens: DefaultTokens, Summarise: true})
	text := strings.Join(out, "\n")
	for _, want := range []string{"## Post 1\n", "## Post 95\n", "Like post 95<", "## Post 97\n", "Like post 97<", "Like post 160<"} {
		if !strings.Contains(text, want) {
			t.Errorf("fitted lacks %q", want)
		}
	}
	if strings.Contains(text, "## Post 60\n") || strings.Contains(text, "## Post 130\n") {
		t.Error("the list is not shortened around the screen")
	}
	for _, l := range out {
		if n, ok := fromOf(l); ok && m.Lines[n] == l {
			t.Errorf("marker %q points at itself", l)
		} else if ok && (n <= 0 || n >= len(m.Lines) || m.inView(n)) {
			t.Errorf("marker %q points at line %d", l, n)
		}
	}
	if n, counted := shown(out); n+counted["items"] != len(m.Lines) {
		t.Errorf("%d shown + %d counted != %d lines", n, counted["items"], len(m.Lines))
	}
}

// When the budget cuts the end of a page, what is on screen beyond the cut
// stays, between markers that say where the rest continues.
func TestFitCutKeepsScreen(t *testing.T) {
	m := feed(160, 120, 121)
	m.Groups = nil // plain boxes: no list to shorten
	out := Fit(m, Budget{Tokens: 1500, Summarise: true})
	text := strings.Join(out, "\n")
	if got := lineTokens(out); got > 1500 {
		t.Errorf("fit to 1500 uses %d", got)
	}
	for _, want := range []string{"## Post 1\n", "## Post 120\n", "Like post 121<"} {
		if !strings.Contains(text, want) {
			t.Errorf("fitted lacks %q:\n%s", want, text)
		}
	}
	if c := strings.Count(text, " follow (about "); c != 2 {
		t.Errorf("%d continuation markers, want one before the screen and one after:\n%s", c, text)
	}
	// A screen too large for half the budget does not push the reading out.
	big := feed(160, 1, 160)
	big.Groups = nil
	if got := Fit(big, Budget{Tokens: 1500}); !strings.Contains(strings.Join(got, "\n"), "## Post 1\n") || lineTokens(got) > 1500 {
		t.Errorf("a whole-page screen: %d tokens", lineTokens(got))
	}
}

// A list of the article (its references) is shown whole by default, and
// shortened only as far as a smaller budget needs; a list that is the whole
// main text (a feed, a catalogue) is shortened by default.
func TestFitArticleLists(t *testing.T) {
	m := page(40, 150)
	out := Fit(m, Budget{Tokens: DefaultTokens, Summarise: true})
	if text := strings.Join(out, "\n"); !strings.Contains(text, "Item 75:") || strings.Contains(text, "more items") {
		t.Error("the article's list of 150 items was shortened with room to spare")
	}
	full := lineTokens(Fit(m, Budget{Tokens: DefaultTokens, Summarise: true}))
	budget := full - 400
	out = Fit(m, Budget{Tokens: budget, Summarise: true})
	text := strings.Join(out, "\n")
	if got := lineTokens(out); got > budget {
		t.Errorf("fit to %d uses %d", budget, got)
	}
	if !strings.Contains(text, "more items in this list") || !strings.Contains(text, "The last paragraph") || !strings.Contains(text, "Item 100:") {
		t.Errorf("the list was not shortened just enough:\n%s", text[max(0, len(text)-1500):])
	}
	if fed := Fit(feed(160, 0, 0), Budget{Tokens: DefaultTokens, Summarise: true}); len(fed) > 200 {
		t.Errorf("a feed of 160 posts keeps %d lines", len(fed))
	}
}

// A model the page model could not read to the end says so last, with the
// line a continuation reads on from.
func TestFitPartial(t *testing.T) {
	m := page(5, 0)
	m.Partial = true
	out := Fit(m, Budget{Tokens: DefaultTokens, Summarise: true})
	want := fmt.Sprintf("snapshot {from: %d} reads on", len(m.Lines))
	if last := out[len(out)-1]; !strings.Contains(last, want) {
		t.Errorf("last line %q lacks %q", last, want)
	}
}
