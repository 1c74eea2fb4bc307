package content

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/fixtures"
)

// One browser and one fixtures server per test binary (cdptest).
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// readingResult is one corpus page in the reading benchmark.
type readingResult struct {
	name    string
	recall  float64
	tokens  int     // estimated o200k tokens of the default snapshot
	ms      float64 // median snapshot time
	missing []string
	// getContent's Markdown: recall, share of words from outside the article,
	// estimated tokens, time.
	mdRecall, mdOutside float64
	mdTokens            int
	mdMs                float64
}

// BenchmarkReading is the reading benchmark (make readbench): for each of the 40
// corpus pages, the default snapshot's recall of the article a person reads
// (snapshot.MeasureReading against fixtures.CorpusArticle), its estimated tokens
// and its median time, and the same for getContent's Markdown (with the share of
// its words from outside the article); then a table with medians and sums. With
// CDPMCP_READBENCH_DIR=dir the snapshots are written there for counting real
// o200k tokens (scripts/readbench/o200k.mjs).
func BenchmarkReading(b *testing.B) {
	dir := os.Getenv("CDPMCP_READBENCH_DIR")
	var results []readingResult
	for _, name := range fixtures.CorpusPages() {
		var res readingResult
		b.Run(name, func(b *testing.B) {
			p := cdptest.NewPage(b)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/corpus/"+name+".html"), cdpclient.WaitLoad)); err != nil {
				b.Fatal(err)
			}
			article, err := fixtures.CorpusArticle(name)
			if err != nil {
				b.Fatal(err)
			}
			var s string
			var times []time.Duration
			for b.Loop() {
				start := time.Now()
				if s, err = pagemodel.Snapshot(ctx, p, pagemodel.Options{}); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			r := snapshot.MeasureReading(article, s)
			res = readingResult{name: name, recall: r.Recall, tokens: snapshot.Estimate(s),
				ms: float64(times[len(times)/2].Microseconds()) / 1000, missing: r.Missing}
			start := time.Now()
			md, err := Get(ctx, p, "", "markdown")
			if err != nil {
				b.Fatal(err)
			}
			res.mdMs = float64(time.Since(start).Microseconds()) / 1000
			mr := snapshot.MeasureReading(article, md)
			res.mdRecall, res.mdOutside, res.mdTokens = mr.Recall, mr.Outside, snapshot.Estimate(md)
			b.ReportMetric(r.Recall, "recall")
			b.ReportMetric(float64(res.tokens), "est-tokens")
			if dir != "" {
				_ = os.WriteFile(filepath.Join(dir, name+".txt"), []byte(s), 0o644)
				_ = os.WriteFile(filepath.Join(dir, name+".md"), []byte(md), 0o644)
			}
		})
		if res.name != "" {
			results = append(results, res)
		}
	}
	table := readingTable(results)
	b.Log("\n" + table)
	if dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "table.md"), []byte(table), 0o644)
	}
}

// readingTable renders the per-page results with medians and sums.
func readingTable(rs []readingResult) string {
	var sb strings.Builder
	sb.WriteString("| page | recall | est. tokens | ms | missing (sample) | md recall | md outside | md est. tokens | md ms |\n|---|---:|---:|---:|---|---:|---:|---:|---:|\n")
	var recalls, ms, mdRecalls, mdOutside, mdMs []float64
	tokens, mdTokens, under, mdUnder := 0, 0, 0, 0
	for _, r := range rs {
		fmt.Fprintf(&sb, "| %s | %.3f | %d | %.1f | %s | %.3f | %.3f | %d | %.1f |\n", r.name, r.recall, r.tokens, r.ms,
			strings.Join(r.missing[:min(6, len(r.missing))], " "), r.mdRecall, r.mdOutside, r.mdTokens, r.mdMs)
		recalls, ms = append(recalls, r.recall), append(ms, r.ms)
		mdRecalls, mdOutside, mdMs = append(mdRecalls, r.mdRecall), append(mdOutside, r.mdOutside), append(mdMs, r.mdMs)
		tokens += r.tokens
		mdTokens += r.mdTokens
		if r.recall < 0.9 {
			under++
		}
		if r.mdRecall < 0.98 {
			mdUnder++
		}
	}
	fmt.Fprintf(&sb, "| **%d pages** | median %.3f, %d under 0.9 | sum %d | median %.1f | | median %.3f, %d under 0.98 | median %.3f | sum %d | median %.1f |\n",
		len(rs), median(recalls), under, tokens, median(ms), median(mdRecalls), mdUnder, median(mdOutside), mdTokens, median(mdMs))
	return sb.String()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
