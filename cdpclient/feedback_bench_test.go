package cdpclient

import (
	"context"
	"testing"
	"time"
)

// BenchmarkFeedbackSummaryBig measures what summarising an action's effect costs
// on the big bench page (1,000 items, 300 buttons) after the action changed 50
// texts, removed 5 buttons and added 10: collecting the changes in the page
// (keyed by ref, new refs handed out) and building the feedback in Go. The
// action itself and settling are not included.
func BenchmarkFeedbackSummaryBig(b *testing.B) {
	p := newBenchPage(b)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := p.Navigate(ctx, testSite.URL("/bench/big.html"), WaitLoad); err != nil {
		b.Fatal(err)
	}
	if _, err := p.Snapshot(ctx, SnapshotOptions{}); err != nil {
		b.Fatal(err)
	}
	const change = `(() => {
	  const lis = document.querySelectorAll('#items li');
	  for (let i = 0; i < 50; i++) lis[i * 7].textContent = 'Item changed ' + Math.random();
	  const btns = document.querySelectorAll('#buttons button');
	  for (let i = 0; i < 5; i++) btns[i].remove();
	  const box = document.getElementById('buttons');
	  for (let i = 0; i < 10; i++) { const nb = document.createElement('button'); nb.textContent = 'New ' + i; box.appendChild(nb); }
	  return 1;
	})()`
	var n int
	for b.Loop() {
		b.StopTimer()
		ws := p.watchStart(ctx, Target{})
		if _, err := p.Evaluate(ctx, change, EvalOptions{}); err != nil {
			b.Fatal(err)
		}
		o := &observation{p: p, act: "click", mark: p.logs.Mark(), errMark: p.errorsReported(), url: p.URL(), pages: p.bc.Seq(), nav: p.navMark()}
		b.StartTimer()
		o.dom = p.watchChanges(ctx, ws, 0)
		fb := o.feedback(ctx, nil)
		n = len(fb.JSON())
	}
	b.ReportMetric(float64(n), "feedback-bytes")
}
