package reftable

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Refs handed out in two frames are each found in theirs; numbering goes on
// from the highest, never back.
func TestTable(t *testing.T) {
	tab := New[string]()
	if tab.Used() || tab.Base() != 0 {
		t.Fatal("a new table has refs")
	}
	tab.Record("main", 0, 3)
	tab.Record("frame", tab.Base(), 5)
	tab.Record("main", 2, 2) // nothing new handed out
	if f, ok := tab.Lookup(4); !ok || f != "frame" {
		t.Errorf("Lookup(4) = %q, %v; want frame, true", f, ok)
	}
	if _, ok := tab.Lookup(6); ok {
		t.Error("ref 6 was never handed out")
	}
	frames := tab.Frames()
	sort.Strings(frames)
	if diff := cmp.Diff([]string{"frame", "main"}, frames); diff != "" || tab.Base() != 5 || !tab.Used() {
		t.Errorf("frames (-want +got):\n%s; base %d", diff, tab.Base())
	}
}
