package pagemodel

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// call is a context like a tool call's: 30 s (the default --timeout), scaled
// for a slow machine (testbound).
func call(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(30*time.Second))
	t.Cleanup(cancel)
	return ctx
}

// A page of 200,000 elements: the snapshot answers within a call's time and
// its token budget, and says how to read on; the page model walks it in
// slices, so the page is never taken for busy. Evaluate and a click by ref
// answer too. (Its speed is in BenchmarkSnapshotCorpus and the bench.)
//
// Parallel: alone, it held the race half's only running test for 50 to 150 s
// (17 s on an idle machine) while the other half's parallel tests held the
// cores; beside the package's other tests it shares them instead.
func TestSnapshotHugePage(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	if err := outcome(p.Navigate(testContext(t), cdptest.Site.URL("/huge.html?rows=50000"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	n, err := evaluate(testContext(t), p, "document.getElementsByTagName('*').length")
	if count, _ := strconv.Atoi(n); err != nil || count < 200000 {
		t.Fatalf("elements: %s %v", n, err)
	}
	start := time.Now()
	s, err := Snapshot(call(t), p, Options{})
	d := time.Since(start)
	if err != nil {
		t.Fatalf("snapshot after %v: %v", d, err)
	}
	tokens := snapshot.Estimate(s)
	t.Logf("%s elements: snapshot in %v, %d estimated tokens, %d lines", n, d, tokens, strings.Count(s, "\n"))
	if tokens > snapshot.DefaultTokens+200 {
		t.Errorf("snapshot of the huge page costs %d tokens", tokens)
	}
	if !strings.Contains(s, "snapshot {from: ") {
		t.Errorf("the cut is not reported:\n%s", s[len(s)-300:])
	}
	if got, err := evaluate(testContext(t), p, "document.querySelectorAll('li').length"); err != nil || got != "50000" {
		t.Errorf("evaluate after the snapshot: %s %v", got, err)
	}
	ref := regexp.MustCompile(`(\d+)\[:\]<a>open 3</a>`).FindStringSubmatch(s)
	if ref == nil {
		t.Fatalf("no link \"open 3\" in:\n%s", s[:min(len(s), 600)])
	}
	if err := outcome(p.Click(testContext(t), cdpclient.Target{Ref: ref[1]}, cdpclient.ClickOptions{})); err != nil {
		t.Errorf("click by ref: %v", err)
	}
	if got, err := evaluate(testContext(t), p, "location.hash"); err != nil || got != `"#r3"` {
		t.Errorf("after the click: %s %v", got, err)
	}
}

// A walk that runs out of its time shows the lines it read, says so, and
// snapshot {from} resumes it where it stopped.
func TestSnapshotResumesWalk(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/huge.html?rows=3000"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	setWalkLimit(p, time.Millisecond) // stops after the first few elements
	s, err := Snapshot(ctx, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(\d+) lines read so far; snapshot \{from: (\d+)\} reads on`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("a walk stopped early does not say so:\n%s", s)
	}
	from, _ := strconv.Atoi(m[2])
	setWalkLimit(p, 0)
	next, err := Snapshot(ctx, p, Options{From: from})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(next, " — from line "+m[2]+" of ") || strings.Contains(next, "reads on") {
		t.Errorf("the continuation of a walk:\n%s", next[:min(len(next), 600)])
	}
	if strings.Contains(next, "_[:]# 50,000 nodes") || !strings.Contains(next, ">open 3000</a>") {
		t.Errorf("the continuation does not pick up where the walk stopped:\n%s", next[:min(len(next), 600)])
	}
}
