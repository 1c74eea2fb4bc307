package jobs_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// On a shared store, a worker that starts under the name of a live one (the
// same --worker-id given twice) refuses to start and takes none of its jobs;
// one that starts under the name of a process that died waits for that
// one's lease to run out, then takes its jobs over.
func TestWorkerNameInUse(t *testing.T) {
	bothStores.Store(t.Name(), true) // a fleet's store: PostgreSQL
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		const lease = 1500 * time.Millisecond
		live := t.TempDir()
		q := openQueue(t, live, jobs.Config{MaxTabs: 1, Worker: "w1", Lease: lease})
		// The second process shares the first's store, with a data dir of its own.
		dir, store := processDir(t, t.TempDir(), q.dir.Path)
		_, err := jobs.Open(context.Background(), jobs.Config{Dir: dir, Store: store, MaxTabs: 1, Worker: "w1", Lease: lease})
		if err == nil || !strings.Contains(err.Error(), `worker id "w1" is in use`) {
			t.Fatalf("a second live w1 started: %v", err)
		}

		// A process named w2 that renewed once and died: the newcomer waits
		// out its lease, then starts.
		if _, err := store.Renew(testCtx(t), jobstore.Worker{ID: "w2", MaxTabs: 1, Started: time.Now()}, lease); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		q2, err := jobs.Open(context.Background(), jobs.Config{Dir: dir, Store: store, MaxTabs: 1, Worker: "w2", Lease: lease,
			Endpoints: []string{shared}})
		if err != nil {
			t.Fatalf("a w2 after a dead w2: %v", err)
		}
		t.Cleanup(func() { _ = q2.Close() })
		if took := time.Since(start); took < lease/2 {
			t.Errorf("w2 started after %s, before the dead one's lease ran out", took)
		}
	})
}
