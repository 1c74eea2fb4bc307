package cdpclient

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkFeedbackFollow measures what following an action's effects costs
// and catches (make bench): a click that starts nothing (it must not pay for
// the quiet window), a click whose XMLHttpRequest answers after 300 ms and
// only changes the page, and the fetch-then-redirect sign-in (the server
// answers after 100 ms, the page goes on `then` ms later) for handlers that
// wait 0 to 600 ms: caught is the share of answers that named the new page,
// over-ms the median time the answer took beyond the server's and the
// handler's own delays.
func BenchmarkFeedbackFollow(b *testing.B) {
	p := newTestPage(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	b.Cleanup(cancel)
	open := func(b *testing.B, path string) {
		if err := outcome(p.Navigate(ctx, testSite.URL(path), WaitLoad)); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("dead", func(b *testing.B) {
		open(b, "/behave/late-effects.html")
		var ms []float64
		followed := 0
		for b.Loop() {
			fb, err := p.Click(ctx, Target{Selector: "#dead"}, ClickOptions{})
			if err = outcome(fb, err); err != nil {
				b.Fatal(err)
			}
			ms = append(ms, float64(fb.Timing))
			if fb.Followed {
				followed++
			}
		}
		b.ReportMetric(medianOf(ms), "answer-ms")
		b.ReportMetric(float64(followed), "followed")
	})
	b.Run("xhr-300", func(b *testing.B) {
		var over []float64
		caught := 0
		for b.Loop() {
			b.StopTimer()
			open(b, "/behave/late-effects.html?ms=300")
			b.StartTimer()
			fb, err := p.Click(ctx, Target{Selector: "#load"}, ClickOptions{})
			if err = outcome(fb, err); err != nil {
				b.Fatal(err)
			}
			over = append(over, float64(fb.Timing-300))
			if fb.Delta != nil && len(fb.Delta.Text) > 0 {
				caught++
			}
		}
		b.ReportMetric(float64(caught)/float64(len(over)), "caught")
		b.ReportMetric(medianOf(over), "over-ms")
	})
	for _, then := range []int{0, 150, 300, 450, 600} {
		b.Run(fmt.Sprintf("signin-then-%d", then), func(b *testing.B) {
			var over []float64
			caught := 0
			for b.Loop() {
				b.StopTimer()
				open(b, fmt.Sprintf("/behave/signin-fetch.html?ms=100&then=%d", then))
				if _, err := evaluate(ctx, p, "document.getElementById('password').value = 'correct-horse-42'"); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				fb, err := p.Click(ctx, Target{Selector: "#go"}, ClickOptions{})
				if err = outcome(fb, err); err != nil {
					b.Fatal(err)
				}
				over = append(over, float64(fb.Timing-100-int64(then)))
				if fb.Delta != nil && fb.Delta.URL != "" {
					caught++
					continue
				}
				// Missed: the page goes on later; wait for it, or it would
				// leave the next round's page.
				b.StopTimer()
				for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && p.URL() == testSite.URL(fmt.Sprintf("/behave/signin-fetch.html?ms=100&then=%d", then)); {
					time.Sleep(20 * time.Millisecond)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(caught)/float64(len(over)), "caught")
			b.ReportMetric(medianOf(over), "over-ms")
		})
	}
}

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
