package pagemodel

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/fixtures"
)

// benchSnapshot measures snapshots of one loaded page with the default budget
// and reports the estimated tokens of the default and of the full snapshot.
// With CDPMCP_SNAPSHOT_DUMP=dir the snapshots are written there (for counting
// o200k tokens with a real tokenizer).
func benchSnapshot(b *testing.B, path, name string) {
	p := newTestPage(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL(path), cdpclient.WaitLoad)); err != nil {
		b.Fatal(err)
	}
	var s string
	for b.Loop() {
		var err error
		if s, err = Snapshot(ctx, p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	full, err := Snapshot(ctx, p, Options{MaxTokens: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(snapshot.Estimate(s)), "est-tokens")
	b.ReportMetric(float64(snapshot.Estimate(full)), "full-est-tokens")
	if dir := os.Getenv("CDPMCP_SNAPSHOT_DUMP"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, name+".txt"), []byte(s), 0o644)
		_ = os.WriteFile(filepath.Join(dir, name+".full.txt"), []byte(full), 0o644)
	}
}

// BenchmarkSnapshotBench snapshots the pages of ../shared/bench (copied into
// fixtures/pages/bench): login, dashboard, article and the big page.
func BenchmarkSnapshotBench(b *testing.B) {
	for _, name := range []string{"login", "dashboard", "article", "big", "frames"} {
		b.Run(name, func(b *testing.B) { benchSnapshot(b, "/bench/"+name+".html", "bench-"+name) })
	}
}

// BenchmarkSnapshotCorpus snapshots each of the 40 real-world pages.
func BenchmarkSnapshotCorpus(b *testing.B) {
	for _, name := range fixtures.CorpusPages() {
		b.Run(name, func(b *testing.B) { benchSnapshot(b, "/corpus/"+name+".html", "corpus-"+name) })
	}
}
