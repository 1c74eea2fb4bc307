package reader

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/fixtures"
)

// TestCorpusMarkdown reads the 40 corpus pages as Markdown and measures them
// against the article a person reads on each (the reading oracle): on every page
// at least 98% of the article's words, and at most 20% of the Markdown's words
// from outside it (10% in the median).
func TestCorpusMarkdown(t *testing.T) {
	var recalls, outside []float64
	var table strings.Builder
	for _, name := range fixtures.CorpusPages() {
		page, err := fixtures.CorpusPage(name)
		if err != nil {
			t.Fatal(err)
		}
		article, err := fixtures.CorpusArticle(name)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		md, err := Read(page, "https://example.com/"+name+".html", Markdown, false)
		d := time.Since(start)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		r := snapshot.MeasureReading(article, md)
		recalls, outside = append(recalls, r.Recall), append(outside, r.Outside)
		if r.Recall < 0.98 || r.Outside > 0.2 {
			t.Errorf("%s: recall %.3f (missing e.g. %q), %.3f of the words from outside the article", name, r.Recall, r.Missing, r.Outside)
		}
		fmt.Fprintf(&table, "%-32s recall %.3f outside %.3f %5d bytes %v %s\n", name, r.Recall, r.Outside, len(md), d.Round(time.Millisecond), strings.Join(r.Missing[:min(5, len(r.Missing))], " "))
	}
	slices.Sort(recalls)
	slices.Sort(outside)
	t.Logf("\n%smedian recall %.3f, median outside %.3f", table.String(), recalls[len(recalls)/2], outside[len(outside)/2])
	if m := outside[len(outside)/2]; m > 0.1 {
		t.Errorf("median share of words from outside the article %.3f, want ≤ 0.1", m)
	}
}
