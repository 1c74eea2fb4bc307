package storetest

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// BenchClaimLatency measures how long a job waits from its submission's
// commit (Create returned) until a free worker, waiting on Watch as the
// queue does, has claimed it; the worker uses a handle of its own when the
// store is Shared (another process). It reports the median and p95.
func BenchClaimLatency(b *testing.B, open func() (jobstore.Store, error)) {
	sub, err := open()
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	wk := sub
	if sub.Shared() {
		if wk, err = open(); err != nil {
			b.Fatal(err)
		}
		defer wk.Close()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := wk.Watch(ctx)
	claimed := make(chan time.Time)
	go func() {
		for {
			j, err := wk.Claim(ctx, "bench-worker", time.Minute)
			if err != nil {
				return
			}
			if j != nil {
				claimed <- time.Now()
				continue
			}
			select { // free: wait for a job, as the queue does
			case <-events:
			case <-time.After(time.Second):
			case <-ctx.Done():
				return
			}
		}
	}()
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		j := Job(fmt.Sprintf("bench-%d-%d", i, time.Now().UnixNano()), fmt.Sprintf("bench-%d-%d", i, time.Now().UnixNano()))
		if _, _, err := sub.Create(ctx, j); err != nil {
			b.Fatal(err)
		}
		committed := time.Now()
		select {
		case at := <-claimed:
			lat = append(lat, at.Sub(committed))
		case <-time.After(10 * time.Second):
			b.Fatal("the job was not claimed within 10 s")
		}
	}
	sort.Slice(lat, func(i, k int) bool { return lat[i] < lat[k] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "claim-median-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "claim-p95-ms")
}
