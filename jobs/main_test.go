package jobs_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/cdpclient/webmcp"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/pgtest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
)

var (
	site *fixtures.Server
	// pg serves the store's tests' runs on PostgreSQL (onBothStores) and the
	// benchmarks' second run; benchOnPostgres says the benchmarks run there.
	pg              *pgtest.Server
	benchOnPostgres bool
	databases       sync.Map // data dir path → its database's URL
	// shared is the DevTools endpoint of the browser the queues of most
	// tests run their jobs in (Config.Endpoints): each job still gets a
	// context of its own, and a launch costs more CPU than most tests'
	// jobs. The tests of a queue's own browsers (one dying, the disk
	// filling under its profile, profiles) launch theirs.
	shared string
)

// testBrowserArgs keep the test browsers off every network but loopback.
var testBrowserArgs = []string{"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"}

// TestMain runs every test, the store's tests on both stores
// (onBothStores); then the benchmarks again with the jobs in PostgreSQL.
// The features' listeners and hooks are set up first, as cmd/cdpmcp does.
func TestMain(m *testing.M) { network.Register(); webmcp.Register(); input.Register(); os.Exit(run(m)) }

func run(m *testing.M) int {
	var err error
	if site, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "fixtures:", err)
		return 1
	}
	defer site.Close()
	if pg, err = pgtest.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer pg.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	browser, err := browserproc.Launch(ctx, browserproc.Options{Headless: true, Disposable: true, Args: testBrowserArgs}, nil)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "the shared browser:", err)
		return 1
	}
	defer browser.Close()
	shared = browser.Endpoint()
	if code := m.Run(); code != 0 {
		return code
	}
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		return 0
	}
	// The tests ran on both stores above; only the benchmarks run again.
	benchOnPostgres = true
	_ = flag.Set("test.run", "^$")
	fmt.Fprintln(os.Stderr, "=== the benchmarks again with the jobs in PostgreSQL")
	return m.Run()
}

// onBothStores runs a test whose outcome the store decides (claims, states,
// keys, tenants, restarts, profiles, what it keeps) on SQLite and on
// PostgreSQL, as its subtests "sqlite" and "postgres": in the same run, so
// that the two share the parallel slots with every other test rather than
// the PostgreSQL ones waiting for the end of a first run. A test that is
// parallel is so in both.
func onBothStores(t *testing.T, test func(t *testing.T)) {
	t.Helper()
	bothStores.Store(t.Name(), true)
	t.Run("sqlite", test)
	t.Run("postgres", test)
}

// bothStores holds the names of the tests onBothStores ran.
var bothStores sync.Map

// onPostgres says whether t runs with its jobs in PostgreSQL: it is (or is
// within) the "postgres" subtest of onBothStores, or a benchmark in the
// benchmarks' second run.
func onPostgres(t testing.TB) bool {
	if _, isBench := t.(*testing.B); isBench || t.Name() == "" {
		return benchOnPostgres
	}
	top, rest, _ := strings.Cut(t.Name(), "/")
	sub, _, _ := strings.Cut(rest, "/")
	_, both := bothStores.Load(top)
	return sub == "postgres" && both
}

// openStore opens the store of the data dir at path: its SQLite file, or
// on the PostgreSQL run a database of its own.
func openStore(t testing.TB, path string) jobs.Store {
	t.Helper()
	var (
		s   jobs.Store
		err error
	)
	if onPostgres(t) {
		url, ok := databases.Load(path)
		if !ok {
			if url, err = pg.NewDatabase("jobs"); err != nil {
				t.Fatal(err)
			}
			databases.Store(path, url)
		}
		s, err = postgres.Open(context.Background(), url.(string))
	} else {
		s, err = sqlite.Open(context.Background(), jobs.DBPath(path), false)
	}
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	return s
}

// storedBytes is everything the store of q keeps, as bytes to search.
func storedBytes(t *testing.T, q *testQueue) []byte {
	t.Helper()
	if !onPostgres(t) {
		b, err := os.ReadFile(q.dir.DBPath())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	url, _ := databases.Load(q.dir.Path)
	bin, _ := pgtest.Bin()
	b, err := exec.Command(filepath.Join(bin, "pg_dump"), "--data-only", url.(string)).Output()
	if err != nil {
		t.Fatalf("pg_dump: %v", err)
	}
	return b
}

// testQueue is a queue on its own data dir with its own browsers, closed when
// the test ends.
type testQueue struct {
	*jobs.Queue
	dir   *jobs.DataDir
	store jobs.Store
}

// openQueue opens a queue whose jobs run in the shared browser, unless cfg
// names endpoints of its own.
func openQueue(t *testing.T, path string, cfg jobs.Config) *testQueue {
	t.Helper()
	if cfg.Endpoints == nil {
		cfg.Endpoints = []string{shared}
	}
	return openLaunchingQueue(t, path, cfg)
}

// openLaunchingQueue opens a queue that launches its jobs' browser itself,
// the way cdpmcp serve does without --endpoints (the one at
// cfg.Browser.Launch.Path, if set, given its StartTimeout).
func openLaunchingQueue(t *testing.T, path string, cfg jobs.Config) *testQueue {
	t.Helper()
	dir, err := jobs.OpenDataDir(path)
	if err != nil {
		t.Fatalf("OpenDataDir: %v", err)
	}
	store := openStore(t, dir.Path)
	cfg.Dir, cfg.Store = dir, store
	launch := cdpclient.LaunchOptions{Path: cfg.Browser.Launch.Path, StartTimeout: cfg.Browser.Launch.StartTimeout, Args: testBrowserArgs}
	cfg.Browser = cdpclient.Options{Launch: launch, Secrets: cfg.Browser.Secrets}
	q, err := jobs.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("jobs.Open: %v", err)
	}
	tq := &testQueue{Queue: q, dir: dir, store: store}
	t.Cleanup(tq.close)
	return tq
}

func newQueue(t *testing.T, cfg jobs.Config) *testQueue {
	return openQueue(t, t.TempDir(), cfg)
}

// close shuts the queue down; safe to call twice.
func (q *testQueue) close() {
	_ = q.Queue.Close()
	_ = q.store.Close()
	_ = q.dir.Close()
}

func testCtx(t *testing.T) context.Context { return testbound.Context(t) }

// submitted numbers the correlationIds submit makes up.
var submitted atomic.Int64

// submit queues a job and fails the test on an error.
func (q *testQueue) submit(t *testing.T, req jobs.SubmitRequest) *jobs.Job {
	t.Helper()
	if req.CorrelationID == "" {
		// A correlationId names one request (its idempotency key).
		req.CorrelationID = fmt.Sprintf("%s-%d", t.Name(), submitted.Add(1))
	}
	j, _, err := q.Submit(testCtx(t), req)
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	return j
}

// wait polls a job until it is in one of states (or the test bound is up)
// and returns it with every state it was seen in, in order.
func (q *testQueue) wait(t *testing.T, id string, states ...jobs.State) (*jobs.Job, []jobs.State) {
	t.Helper()
	deadline := time.Now().Add(testbound.Bound())
	var seen []jobs.State
	for {
		j, err := q.Status(testCtx(t), id)
		if err != nil {
			t.Fatalf("Status: %v", err)
		}
		if len(seen) == 0 || seen[len(seen)-1] != j.State {
			seen = append(seen, j.State)
		}
		for _, s := range states {
			if j.State == s {
				return j, seen
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %s (%s) after %s; want %v", id, j.State, j.Summary, testbound.Bound(), states)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processDir opens a data dir at path and its store for a process of the
// test's own, both closed when the test ends; with shared, the store is the
// database of the data dir shared names (a fleet's).
func processDir(t *testing.T, path, shared string) (*jobs.DataDir, jobs.Store) {
	t.Helper()
	if shared != "" {
		url, _ := databases.Load(shared)
		databases.Store(path, url)
	}
	dir, err := jobs.OpenDataDir(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dir.Close() })
	store := openStore(t, dir.Path)
	t.Cleanup(func() { store.Close() })
	return dir, store
}
