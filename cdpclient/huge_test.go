package cdpclient

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// A 50,000-element page: the snapshot stays within its token budget and comes
// back within the test bound. (Its speed is in BenchmarkSnapshotCorpus and the
// bench.)
func TestSnapshotHugePage(t *testing.T) {
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/huge.html"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	n, err := p.Evaluate(ctx, "document.getElementsByTagName('*').length", EvalOptions{})
	if count, _ := strconv.Atoi(n); err != nil || count < 50000 {
		t.Fatalf("elements: %s %v", n, err)
	}
	start := time.Now()
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	d := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	tokens := snapshot.Estimate(s)
	t.Logf("%s elements: snapshot in %v, %d estimated tokens, %d lines", n, d, tokens, strings.Count(s, "\n"))
	if tokens > snapshot.DefaultTokens+200 {
		t.Errorf("snapshot of the huge page costs %d tokens", tokens)
	}
	if !strings.Contains(s, "snapshot {from: ") {
		t.Errorf("the cut is not reported:\n%s", s[len(s)-300:])
	}
}
