package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
)

// visibleControls counts, independently of the page model, the links, buttons
// and form controls a user can see (rendered, not clipped away, not a hidden
// slide of a carousel, in the document or an open shadow root) and reports those
// whose ref is missing from snap.
// It runs in the page model's world, where refOf maps an element to its ref.
const visibleControls = `(snap) => {
  const sel = 'a[href], area[href], button, input:not([type=hidden]), select, textarea';
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  // clipped: inside a box that is collapsed, or wholly beside a box that clips
  // its overflow sideways (a carousel's other slides).
  const clipped = (el) => {
    const box = el.getBoundingClientRect();
    for (let a = el.parentElement || el.getRootNode().host; a; a = a.parentElement || (a.getRootNode && a.getRootNode().host)) {
      const s = getComputedStyle(a);
      if (s.overflow === 'visible') continue;
      const r = a.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return true;
      if ((s.overflowX === 'hidden' || s.overflowX === 'clip') && (box.right <= r.left + 1 || box.left >= r.right - 1)) return true;
    }
    return false;
  };
  let counted = 0;
  const missing = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || clipped(el)) continue;
      counted++;
      // An element inside another one that is listed counts as listed.
      let ok = false;
      for (let a = el; a && !ok; a = a.parentElement || (a.getRootNode().host)) {
        const ref = __cdpmcp.refOf(a);
        if (ref && new RegExp('(^|[^0-9])' + ref + '\\[:\\]<').test(snap)) ok = true;
      }
      if (!ok) missing.push(el.outerHTML.slice(0, 160));
    }
  }
  return { counted, missing };
}`

func TestCorpusSnapshotsListEveryControl(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	total, pages := 0, 0
	for _, name := range fixtures.CorpusPages() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := p.Navigate(ctx, testSite.URL("/corpus/"+name+".html"), WaitLoad); err != nil {
			cancel()
			t.Errorf("%s: navigate: %v", name, err)
			continue
		}
		snap, err := p.Snapshot(ctx, SnapshotOptions{MaxTokens: -1})
		if err != nil {
			cancel()
			t.Errorf("%s: snapshot: %v", name, err)
			continue
		}
		var res struct {
			Counted int      `json:"counted"`
			Missing []string `json:"missing"`
		}
		arg, _ := json.Marshal("\n" + snap)
		err = p.withWorld(ctx, frameKey{frame: p.mainFrame}, func(w *worldIn) error {
			r, err := w.eval(ctx, "("+visibleControls+")("+string(arg)+")", true)
			if err != nil {
				return err
			}
			return json.Unmarshal(r.Value, &res)
		})
		cancel()
		if err != nil {
			t.Errorf("%s: count: %v", name, err)
			continue
		}
		total += res.Counted
		pages++
		if len(res.Missing) > 0 {
			t.Errorf("%s: %d of %d visible controls missing from the snapshot, e.g.:\n  %s", name, len(res.Missing), res.Counted,
				strings.Join(res.Missing[:min(5, len(res.Missing))], "\n  "))
		}
	}
	t.Logf("%d pages, %d visible links, buttons and form controls checked", pages, total)
	if pages != len(fixtures.CorpusPages()) {
		t.Errorf("only %d of %d pages checked", pages, len(fixtures.CorpusPages()))
	}
	_ = fmt.Sprint()
}
