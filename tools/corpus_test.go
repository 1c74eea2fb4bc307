package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/tokens"
)

// The 40 saved real pages, each loaded once, as a model meets them through
// MCP:
//   - navigate answers ok (their own scripts throw and their subresources fail
//     offline: the page still arrived), and compactly: at most 250 tokens a
//     page and 120 in the median (o200k);
//   - the default snapshot carries the article a person reads there (the
//     corpus's expected.html) within the page's token bound;
//   - the full snapshot lists every link, button and form control a person
//     can see (visibleControls, counted apart from the page model).
//
// The pages are split in two tests that run beside each other, each on a
// browser of its own.
func TestCorpus(t *testing.T) {
	t.Parallel()
	pages := fixtures.CorpusPages()
	checkCorpus(t, "first", pages[:len(pages)/2])
}

func TestCorpusSecondHalf(t *testing.T) {
	t.Parallel()
	pages := fixtures.CorpusPages()
	checkCorpus(t, "second", pages[len(pages)/2:])
	if len(corpusBounds) != len(pages) {
		t.Errorf("%d pages have bounds, want all %d", len(corpusBounds), len(pages))
	}
}

// corpusNavigateTokens gathers both halves' navigate answers for the median.
var corpusNavigateTokens struct {
	sync.Mutex
	counts []int
	halves int
}

func checkCorpus(t *testing.T, half string, names []string) {
	// Pages from the corpus name hosts on the internet; fail them at once.
	noInternet := "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true,
		Args: []string{noInternet, fmt.Sprintf("--cdpmcp-test=corpus-%s-%d", half, os.Getpid())}}})
	defer m.Close()
	s := New(Config{Timeout: callTimeout}, m)
	defer s.Close()
	c := newClient(t, s)
	var counts []int
	checked, controls, snapTokens := 0, 0, 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			// A tab of its own, as the page model numbers refs on from a
			// tab's earlier documents (longer numbers cost tokens), opened
			// on the site, as a model navigates on from a page it is on.
			mustOK(t, callTool(t, c, "newPage", map[string]any{"url": site.URL("/second.html")}))
			defer callTool(t, c, "closePage", nil)
			r := callTool(t, c, "navigate", map[string]any{"url": site.URL("/corpus/" + name + ".html")})
			if fb := feedbackOf(t, r); r.isError || fb["ok"] != true {
				t.Errorf("navigate: %s", r.text)
				return
			}
			n := tokens.Count(r.text)
			counts = append(counts, n)
			if n > 250 {
				t.Errorf("navigate answered %d tokens: %s", n, r.text)
			}
			def := callTool(t, c, "snapshot", nil)
			mustOK(t, def)
			snapTokens += checkReading(t, name, def.text)
			full := callTool(t, c, "snapshot", map[string]any{"maxTokens": -1})
			mustOK(t, full)
			counted, err := checkControls(testCtx(t), t, m, name, full.text)
			if err != nil {
				t.Error(err)
				return
			}
			controls += counted
			checked++
		})
	}
	t.Logf("%d pages, %d estimated tokens in the default snapshots, %d visible links, buttons and form controls checked", checked, snapTokens, controls)
	if checked != len(names) {
		t.Errorf("checked %d of %d pages", checked, len(names))
	}
	medianOfBoth(t, counts)
}

// checkReading checks that the default snapshot carries the page's article
// within its token bound, and returns its estimated tokens.
func checkReading(t *testing.T, name, def string) int {
	t.Helper()
	article, err := fixtures.CorpusArticle(name)
	if err != nil {
		t.Fatal(err)
	}
	r := snapshot.MeasureReading(article, def)
	n := snapshot.Estimate(def)
	b := corpusBounds[name]
	if r.Recall < b.recall {
		t.Errorf("the default snapshot carries %.3f of the article, want ≥ %.2f; missing e.g. %q", r.Recall, b.recall, r.Missing)
	}
	if n > b.tokens {
		t.Errorf("the default snapshot costs %d estimated tokens, want ≤ %d", n, b.tokens)
	}
	return n
}

// checkControls runs visibleControls on the manager's page against the full
// snapshot and fails the test for each visible control the snapshot misses. It
// returns how many it counted.
func checkControls(ctx context.Context, t *testing.T, m *cdpclient.Manager, name, full string) (int, error) {
	b := m.Current()
	if b == nil {
		return 0, fmt.Errorf("no browser")
	}
	var p *cdpclient.Page
	for _, q := range b.Default().Pages() {
		if strings.HasSuffix(q.URL(), "/corpus/"+name+".html") {
			p = q
		}
	}
	if p == nil {
		return 0, fmt.Errorf("no page shows /corpus/%s.html", name)
	}
	var res struct {
		Counted int      `json:"counted"`
		Missing []string `json:"missing"`
	}
	arg, _ := json.Marshal("\n" + full)
	err := cdpclient.ReadInWorld(ctx, p, "("+visibleControls+")("+string(arg)+")", &res)
	if err != nil {
		return 0, fmt.Errorf("count the visible controls: %w", err)
	}
	if len(res.Missing) > 0 {
		t.Errorf("%d of %d visible controls missing from the snapshot, e.g.:\n  %s", len(res.Missing), res.Counted,
			strings.Join(res.Missing[:min(5, len(res.Missing))], "\n  "))
	}
	return res.Counted, nil
}

// medianOfBoth adds a half's navigate answers to the corpus's; the half that
// ends second checks the median over all pages.
func medianOfBoth(t *testing.T, counts []int) {
	all := &corpusNavigateTokens
	all.Lock()
	defer all.Unlock()
	all.counts = append(all.counts, counts...)
	if all.halves++; all.halves < 2 {
		return
	}
	slices.Sort(all.counts)
	med := all.counts[len(all.counts)/2]
	t.Logf("navigate feedback over %d pages: median %d, max %d tokens (o200k)", len(all.counts), med, all.counts[len(all.counts)-1])
	if med > 120 {
		t.Errorf("navigate answers %d tokens in the median, want at most 120", med)
	}
}
