package pagemodel

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

// BenchmarkHugePage measures calls on pages of 50,000 and 200,000 elements
// (fixtures/pages/huge.html), each under a call's 30 s: a default snapshot,
// an evaluate (an expression run as the evaluate tool runs it: evaluate in
// main_test.go), a click by ref. It reports the median ms of each and whether a
// snapshot had to stop its walk (partial). Not in make bench's pattern (a
// round takes seconds):
//
//	go test -run '^$' -bench HugePage -benchtime 3x ./cdpclient/pagemodel
func BenchmarkHugePage(b *testing.B) {
	for _, rows := range []int{12500, 50000} {
		b.Run(fmt.Sprintf("%d-elements", rows*4), func(b *testing.B) {
			p := newTestPage(b)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			if err := outcome(p.Navigate(ctx, cdptest.Site.URL(fmt.Sprintf("/huge.html?rows=%d", rows)), cdpclient.WaitLoad)); err != nil {
				b.Fatal(err)
			}
			if _, err := evaluate(ctx, p, "document.body.offsetHeight"); err != nil { // the first layout
				b.Fatal(err)
			}
			var snap, eval, click []time.Duration
			partial := 0
			timed := func(out *[]time.Duration, f func(ctx context.Context) error) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				start := time.Now()
				if err := f(ctx); err != nil {
					b.Fatal(err)
				}
				*out = append(*out, time.Since(start))
			}
			for b.Loop() {
				var s string
				timed(&snap, func(ctx context.Context) (err error) {
					s, err = Snapshot(ctx, p, Options{})
					return err
				})
				if strings.Contains(s, "reads on") {
					partial++
				}
				timed(&eval, func(ctx context.Context) error {
					_, err := evaluate(ctx, p, "document.querySelectorAll('a').length")
					return err
				})
				ref := regexp.MustCompile(`(\d+)\[:\]<a>open 3</a>`).FindStringSubmatch(s)
				if ref == nil {
					b.Fatal("no link in the snapshot")
				}
				timed(&click, func(ctx context.Context) error {
					return outcome(p.Click(ctx, cdpclient.Target{Ref: ref[1]}, cdpclient.ClickOptions{}))
				})
			}
			median := func(ds []time.Duration) float64 {
				slices.Sort(ds)
				return float64(ds[len(ds)/2].Microseconds()) / 1000
			}
			b.ReportMetric(median(snap), "snapshot-ms")
			b.ReportMetric(median(eval), "evaluate-ms")
			b.ReportMetric(median(click), "click-ms")
			b.ReportMetric(float64(partial)/float64(len(snap)), "partial")
		})
	}
}
