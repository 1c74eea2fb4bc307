package recording

import (
	"sort"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/network"
)

// mergeHAR adds another tab's log to h: its pages renamed after the tab
// (p2_page_1), its entries pointing at them, every entry in order of start.
func mergeHAR(h *network.HAR, tab string, other *network.HAR) {
	for _, pg := range other.Log.Pages {
		pg.ID = tab + "_" + pg.ID
		pg.Title = tab + ": " + pg.Title
		h.Log.Pages = append(h.Log.Pages, pg)
	}
	for _, e := range other.Log.Entries {
		if e.PageRef != "" {
			e.PageRef = tab + "_" + e.PageRef
		}
		h.Log.Entries = append(h.Log.Entries, e)
	}
	started := func(s string) time.Time { t, _ := time.Parse(time.RFC3339Nano, s); return t }
	sort.SliceStable(h.Log.Pages, func(i, j int) bool {
		return started(h.Log.Pages[i].Started).Before(started(h.Log.Pages[j].Started))
	})
	sort.SliceStable(h.Log.Entries, func(i, j int) bool {
		return started(h.Log.Entries[i].Started).Before(started(h.Log.Entries[j].Started))
	})
}
