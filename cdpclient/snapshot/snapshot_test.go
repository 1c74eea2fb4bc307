package snapshot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRef(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{"12[:]<button>Save</button>", 12},
		{"_[:]12[:]<a>x</a>", 0},
		{"_[:]text", 0},
		{"x[:]<a>", 0},
		{"", 0},
	}
	for _, tc := range tests {
		if got := Ref(tc.line); got != tc.want {
			t.Errorf("Ref(%q) = %d, want %d", tc.line, got, tc.want)
		}
	}
}

func TestEstimateIsClose(t *testing.T) {
	// o200k counts measured with gpt-tokenizer; the estimate may be high, not low.
	tests := []struct {
		s     string
		o200k int
	}{
		{"_[:]Item 1: Transit over buses argued buses", 11},
		{"278[:]<button>Action 1</button>", 10},
		{"_[:]INV-1001 | Globex | 2024-05-04 | $795.74 | Overdue | 134[:]<a>View</a>", 35},
		{"_[:]Invoice | Customer | Date | Amount | Status | Action", 13},
	}
	for _, tc := range tests {
		got := Estimate(tc.s)
		if got < tc.o200k*9/10 || got > tc.o200k*14/10 {
			t.Errorf("Estimate(%q) = %d, o200k = %d", tc.s, got, tc.o200k)
		}
	}
}

func items(n int) []string {
	lines := []string{"_[:]# Inventory"}
	for i := 1; i <= n; i++ {
		lines = append(lines, fmt.Sprintf("_[:]Item %d: some words here", i))
	}
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("%d[:]<button>Action %d</button>", i, i))
	}
	return lines
}

func TestFitElidesListMiddle(t *testing.T) {
	lines := items(500)
	out := Fit(lines, 600)
	text := strings.Join(out, "\n")
	if got := lineTokens(out); got > 600 {
		t.Errorf("fit to 600 uses %d", got)
	}
	for _, want := range []string{"Item 1:", "Item 2:", "Item 3:", "Item 500:", "Action 1<", "Action 20<", "more lines (a larger maxTokens or a scope shows them)"} {
		if !strings.Contains(text, want) {
			t.Errorf("fitted snapshot lacks %q:\n%s", want, text)
		}
	}
	// The marker counts exactly what it replaces.
	shown := strings.Count(text, "_[:]Item ")
	var hidden int
	for _, l := range out {
		if _, err := fmt.Sscanf(l, "_[:]… %d more lines", &hidden); err == nil {
			break
		}
	}
	if shown+hidden != 500 {
		t.Errorf("shown %d + elided %d != 500", shown, hidden)
	}
	if diff := cmp.Diff(lines, Fit(lines, 0)); diff != "" {
		t.Errorf("budget 0 changed the lines (-want +got):\n%s", diff)
	}
}

func TestFitKeepsElementsOverText(t *testing.T) {
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, fmt.Sprintf("_[:]Paragraph %d says a great many things at length about nothing in particular. %d[:]<a>Link %d</a> and more.", i, i, i))
		lines = append(lines, fmt.Sprintf("_[:]## Section %d", i))
	}
	out := Fit(lines, 900)
	text := strings.Join(out, "\n")
	for i := 1; i <= 40; i++ {
		if !strings.Contains(text, fmt.Sprintf("%d[:]<a>Link %d</a>", i, i)) {
			t.Errorf("link %d was dropped before text", i)
		}
	}
	if !strings.Contains(text, "from here on text is left out") || !strings.Contains(text, "Paragraph 1 says") {
		t.Errorf("fitted:\n%s", text)
	}
	if got := lineTokens(out); got > 900 {
		t.Errorf("fit to 900 uses %d", got)
	}
}

func TestFitCutsTailHonestly(t *testing.T) {
	var lines []string
	for i := 1; i <= 200; i++ {
		lines = append(lines, fmt.Sprintf("%d[:]<button>Button number %d</button>", i, i))
	}
	out := Fit(lines, 300)
	last := out[len(out)-1]
	var elems, text int
	if _, err := fmt.Sscanf(last, "_[:]… %d more elements and %d text lines", &elems, &text); err != nil {
		t.Fatalf("last line %q", last)
	}
	shown := 0
	for _, l := range out {
		if Ref(l) > 0 {
			shown++
		}
	}
	if shown+elems != 200 || text != 0 {
		t.Errorf("%d shown + %d counted != 200 (text %d)", shown, elems, text)
	}
}

func TestDefaultBudget(t *testing.T) {
	if got := DefaultBudget([]string{"_[:]hi"}); got != DefaultTokens {
		t.Errorf("small page budget = %d", got)
	}
	big := items(10)
	for i := 0; i < 2000; i++ {
		big = append(big, fmt.Sprintf("%d[:]<button>Action %d</button>", i, i))
	}
	if got := DefaultBudget(big); got != MaxElementTokens+MinTextTokens {
		t.Errorf("element-heavy page budget = %d", got)
	}
}

func TestDiff(t *testing.T) {
	prev := []string{"_[:]# Title", "1[:]<button>Save</button>", "2[:]<input>Name</input>", "_[:]old text"}
	cur := []string{"_[:]# Title", "1[:]<button disabled>Save</button>", "_[:]new text", "3[:]<a>Next</a>"}
	got, summary := Diff(prev, cur)
	want := []string{"1[:]<button disabled>Save</button>", "_[:]new text", "3[:]<a>Next</a>", "_[:]gone: 2 (and 1 text lines)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Diff (-want +got):\n%s", d)
	}
	if summary != "diff since the last snapshot: 3 new or changed, 1 gone, 1 unchanged" {
		t.Errorf("summary = %q", summary)
	}
}

func TestHeader(t *testing.T) {
	got := Header("p2", `Say "hi"`, "http://x/", 0, 1200)
	if want := `page p2 "Say \"hi\"" http://x/ (1200px more below)`; got != want {
		t.Errorf("Header = %q, want %q", got, want)
	}
}

// lineTokens is what lines cost in a snapshot.
func lineTokens(lines []string) int {
	n := 0
	for _, l := range lines {
		n += lineCost(l)
	}
	return n
}
