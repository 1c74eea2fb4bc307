package snapshot

import (
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

// HeaderTitle reads back the title Header wrote, quotes and all, and says
// when a line is no header.
func TestHeaderTitle(t *testing.T) {
	for _, title := range []string{`Say "hi"`, "", "A — B\n(1200px)", `back\slash`} {
		got, ok := HeaderTitle(Header("p2", title, "http://x/ y", 10, 1200))
		if !ok || got != title {
			t.Errorf("HeaderTitle(Header(%q)) = %q, %t", title, got, ok)
		}
	}
	for _, line := range []string{"", "_[:]text", "page p1", `page p1 "unterminated`} {
		if got, ok := HeaderTitle(line); ok {
			t.Errorf("HeaderTitle(%q) = %q, true; want false", line, got)
		}
	}
}
