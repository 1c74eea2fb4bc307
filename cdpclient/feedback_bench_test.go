package cdpclient

import (
	"context"
	"testing"
	"time"
)

// bigPageChange is an action's effect on the big bench page (1,000 items, 300
// buttons): 50 texts changed, 5 buttons removed and 10 added.
const bigPageChange = `(() => {
  const lis = document.querySelectorAll('#items li');
  for (let i = 0; i < 50; i++) lis[i * 7].textContent = 'Item changed ' + Math.random();
  const btns = document.querySelectorAll('#buttons button');
  for (let i = 0; i < 5; i++) btns[i].remove();
  const box = document.getElementById('buttons');
  for (let i = 0; i < 10; i++) { const nb = document.createElement('button'); nb.textContent = 'New ' + i; box.appendChild(nb); }
  return 1;
})()`

// observeBigChange opens the big page, snapshots it, applies bigPageChange while
// watching and returns the observation with the DOM changes collected.
func observeBigChange(ctx context.Context, b *testing.B, p *Page) *observation {
	ws := p.watchStart(ctx, actInput, nil, false, nil)
	if _, err := evaluate(ctx, p, bigPageChange); err != nil {
		b.Fatal(err)
	}
	o := &observation{p: p, kind: actInput, mark: p.logs.Mark(), errMark: p.logs.Reported(), url: p.URL(), pages: p.bc.Seq(), nav: p.hist.Mark()}
	o.dom = p.watchChanges(ctx, ws, 0, 0)
	return o
}

func openBig(b *testing.B) (*Page, context.Context) {
	p := newTestPage(b)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	b.Cleanup(cancel)
	if err := outcome(p.Navigate(ctx, testSite.URL("/bench/big.html"), WaitLoad)); err != nil {
		b.Fatal(err)
	}
	modelLines(b, ctx, p) // refs for the elements the change keys by
	return p, ctx
}

// BenchmarkFeedbackSummaryBig is the server's share of the feedback: turning the
// collected changes, console and network logs into the compact answer, in Go.
func BenchmarkFeedbackSummaryBig(b *testing.B) {
	p, ctx := openBig(b)
	o := observeBigChange(ctx, b, p)
	if len(o.dom.Text) == 0 || len(o.dom.Added) == 0 {
		b.Fatalf("changes not seen: %+v", o.dom)
	}
	var n int
	for b.Loop() {
		n = len(o.feedback(ctx, nil).JSON())
	}
	b.ReportMetric(float64(n), "feedback-bytes")
}

// BenchmarkFeedbackCollectBig is the browser's share: one round trip in which the
// page reports what changed, keyed by ref, handing out refs to new elements. It
// includes the page rendering the change before the script runs.
func BenchmarkFeedbackCollectBig(b *testing.B) {
	p, ctx := openBig(b)
	for b.Loop() {
		b.StopTimer()
		ws := p.watchStart(ctx, actInput, nil, false, nil)
		if _, err := evaluate(ctx, p, bigPageChange); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if c := p.watchChanges(ctx, ws, 0, 0); len(c.Text) == 0 {
			b.Fatal("no text changes seen")
		}
	}
}
