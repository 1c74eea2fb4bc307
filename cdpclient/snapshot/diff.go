package snapshot

import (
	"fmt"
	"sort"
	"strings"
)

// Diff returns what changed between two snapshots of a page: the lines of cur
// that prev did not have (new or changed elements and text, in page order),
// then a line naming the refs that are gone. The second result summarises the
// counts for a header.
func Diff(prev, cur []string) ([]string, string) {
	old := make(map[string]int, len(prev))
	oldRefs := map[int]bool{}
	for _, l := range prev {
		old[l]++
		if r := Ref(l); r > 0 {
			oldRefs[r] = true
		}
	}
	var out []string
	curRefs := map[int]bool{}
	same := 0
	for _, l := range cur {
		if r := Ref(l); r > 0 {
			curRefs[r] = true
		}
		if old[l] > 0 {
			old[l]--
			same++
			continue
		}
		out = append(out, l)
	}
	var gone []int
	for r := range oldRefs {
		if !curRefs[r] {
			gone = append(gone, r)
		}
	}
	sort.Ints(gone)
	goneText := 0
	for l, n := range old {
		if Ref(l) == 0 {
			goneText += n
		}
	}
	if len(gone) > 0 || goneText > 0 {
		parts := make([]string, len(gone))
		for i, r := range gone {
			parts[i] = fmt.Sprint(r)
		}
		line := ContextPrefix + "gone:"
		if len(gone) > 0 {
			line += " " + strings.Join(parts, ", ")
		}
		if goneText > 0 {
			line += fmt.Sprintf(" (and %d text lines)", goneText)
		}
		out = append(out, line)
	}
	summary := fmt.Sprintf("diff since the last snapshot: %d new or changed, %d gone, %d unchanged", len(cur)-same, len(gone), same)
	return out, summary
}
