package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
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
  // The refs the snapshot lists, read once (testing each element against
  // the whole text cost minutes of renderer time over the corpus).
  const listed = new Set();
  for (const m of snap.matchAll(/(?:^|[^0-9])([0-9]+)\[:\]</g)) listed.add(m[1]);
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
        if (ref && listed.has(String(ref))) ok = true;
      }
      if (!ok) missing.push(el.outerHTML.slice(0, 160));
    }
  }
  return { counted, missing };
}`

// corpusBounds holds, for each corpus page, the least share of its article the
// default snapshot must carry and the most estimated tokens it may cost: the
// measured figures (make readbench) with a margin, so a regression fails.
var corpusBounds = map[string]struct {
	recall float64
	tokens int
}{
	"aclu":                           {0.98, 4000},
	"archive-of-our-own":             {0.98, 7100},
	"ars-1":                          {0.98, 1550},
	"base-url-base-element-relative": {0.98, 500},
	"bbc-1":                          {0.98, 3050},
	"breitbart":                      {0.98, 1600},
	"bug-1255978":                    {0.96, 4200},
	"cnn":                            {0.98, 1450},
	"daringfireball-1":               {0.98, 900},
	"dropbox-blog":                   {0.98, 5400},
	"ehow-1":                         {0.98, 1350},
	"embedded-videos":                {0.98, 350},
	"firefox-nightly-blog":           {0.98, 4250},
	"folha":                          {0.98, 1750},
	"gitlab-blog":                    {0.98, 2250},
	"google-sre-book-1":              {0.98, 8050},
	"guardian-1":                     {0.98, 3000},
	"heise":                          {0.98, 1200},
	"herald-sun-1":                   {0.98, 2300},
	"ietf-1":                         {0.97, 14450},
	"la-nacion":                      {0.98, 2700},
	"lemonde-1":                      {0.98, 4200},
	"lwn-1":                          {0.98, 8450},
	"medium-1":                       {0.97, 4700},
	"mercurial":                      {0.98, 8850},
	"mozilla-1":                      {0.98, 950},
	"nytimes-1":                      {0.98, 2250},
	"qq":                             {0.91, 1750},
	"royal-road":                     {0.98, 9950},
	"rtl-1":                          {0.98, 250},
	"telegraph":                      {0.98, 1650},
	"theverge":                       {0.98, 2000},
	"v8-blog":                        {0.98, 4850},
	"wapo-1":                         {0.98, 3150},
	"webmd-1":                        {0.98, 1600},
	"wikia":                          {0.98, 2100},
	"wikipedia-2":                    {0.37, 15150},
	"wikipedia":                      {0.97, 13850},
	"wordpress":                      {0.98, 2250},
	"yahoo-4":                        {0.98, 2250},
}

// TestCorpus checks each of the 40 real-world pages: the default snapshot
// carries the article a person reads within its token bound, and the full
// snapshot lists every visible link, button and form control. The pages are
// split in two tests that run beside each other (one took 5 minutes of a
// loaded machine under the race detector, the package's longest test).
func TestCorpus(t *testing.T) {
	t.Parallel()
	pages := fixtures.CorpusPages()
	checkCorpus(t, pages[:len(pages)/2])
}

func TestCorpusSecondHalf(t *testing.T) {
	t.Parallel()
	pages := fixtures.CorpusPages()
	checkCorpus(t, pages[len(pages)/2:])
	if len(corpusBounds) != len(pages) {
		t.Errorf("%d pages have bounds, want all %d", len(corpusBounds), len(pages))
	}
}

func checkCorpus(t *testing.T, names []string) {
	total, pages, tokens := 0, 0, 0
	for _, name := range names {
		// A fresh page for each (closed when its subtest ends): refs number on
		// from a page's earlier documents, and longer numbers cost tokens.
		t.Run(name, func(t *testing.T) {
			p := newTestPage(t)
			ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
			defer cancel()
			if err := corpusPage(ctx, t, p, name, &total, &tokens); err != nil {
				t.Error(err)
				return
			}
			pages++
		})
	}
	t.Logf("%d pages, %d estimated tokens in the default snapshots, %d visible links, buttons and form controls checked", pages, tokens, total)
	if pages != len(names) {
		t.Errorf("checked %d of %d pages", pages, len(names))
	}
}

func corpusPage(ctx context.Context, t *testing.T, p *Page, name string, total, tokens *int) error {
	if err := outcome(p.Navigate(ctx, testSite.URL("/corpus/"+name+".html"), WaitLoad)); err != nil {
		return fmt.Errorf("navigate: %w", err)
	}
	def, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	article, err := fixtures.CorpusArticle(name)
	if err != nil {
		return err
	}
	r := snapshot.MeasureReading(article, def)
	n := snapshot.Estimate(def)
	*tokens += n
	b := corpusBounds[name]
	if r.Recall < b.recall {
		t.Errorf("%s: the default snapshot carries %.3f of the article, want ≥ %.2f; missing e.g. %q", name, r.Recall, b.recall, r.Missing)
	}
	if n > b.tokens {
		t.Errorf("%s: the default snapshot costs %d estimated tokens, want ≤ %d", name, n, b.tokens)
	}
	snap, err := p.Snapshot(ctx, SnapshotOptions{MaxTokens: -1})
	if err != nil {
		return fmt.Errorf("full snapshot: %w", err)
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
	if err != nil {
		return fmt.Errorf("count: %w", err)
	}
	*total += res.Counted
	if len(res.Missing) > 0 {
		t.Errorf("%s: %d of %d visible controls missing from the snapshot, e.g.:\n  %s", name, len(res.Missing), res.Counted,
			strings.Join(res.Missing[:min(5, len(res.Missing))], "\n  "))
	}
	return nil
}
