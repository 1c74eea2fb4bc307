package main

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
)

// BenchmarkFleetThroughput runs 60 navigate jobs on a small fixture page
// through 1, 2 and 3 worker processes (--max-tabs 4 each, a Chromium each)
// sharing one PostgreSQL queue, and reports jobs per minute. On one machine
// the workers share its cores: this measures the queue's overhead and how
// the work spreads, not what more hosts would add.
//
//	go test -run '^$' -bench FleetThroughput -benchtime 1x ./cmd/cdpmcp
func BenchmarkFleetThroughput(b *testing.B) {
	for _, n := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			for b.Loop() {
				db := fleetDB(b)
				store, err := openBenchStore(db)
				if err != nil {
					b.Fatal(err)
				}
				var workers []*workerProc
				for i := range n {
					workers = append(workers, startWorker(b, db, fmt.Sprintf("bench-w%d", i), "--max-tabs", "4"))
				}
				// Warm up: every worker's browser starts with its first jobs.
				runBatch(b, store, fmt.Sprintf("warm-%d", n), 4*n)
				start := time.Now()
				runBatch(b, store, fmt.Sprintf("run-%d", n), 60)
				took := time.Since(start)
				perMin := 60 / took.Minutes()
				b.ReportMetric(perMin, "jobs/min")
				fmt.Fprintf(os.Stderr, "fleet: %d worker(s) x 4 tabs on one %d-core machine: 60 navigate jobs in %v, %.0f jobs/min\n",
					n, 2, took.Round(time.Millisecond), perMin)
				for _, w := range workers {
					w.stop()
				}
				store.Close()
			}
		})
	}
}

func openBenchStore(db string) (jobs.Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return postgres.Open(ctx, db)
}

// runBatch queues n navigate jobs straight into the store and waits for them.
func runBatch(b *testing.B, s jobs.Store, tag string, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var ids []string
	for i := range n {
		id := fmt.Sprintf("job-%s-%d-%d", tag, i, time.Now().UnixNano())
		j := &jobs.Job{ID: id, Key: id, CorrelationID: tag, URL: site.URL(fmt.Sprintf("/jobs/page/%s-%d", tag, i)), MaxTabs: 1, Priority: 5,
			Task: jobs.Task{Type: jobs.TaskNavigate}, State: jobs.Queued, Summary: "queued", Created: time.Now()}
		if _, _, err := s.Create(ctx, j); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		for {
			j, err := s.Get(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			if j.State.Terminal() {
				if j.State != jobs.Succeeded {
					b.Logf("job %s: %s %s", id, j.State, j.Error)
				}
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
