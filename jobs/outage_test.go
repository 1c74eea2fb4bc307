package jobs_test

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
)

// A PostgreSQL outage longer than a lease lets every holder's lease run out
// in the store's clock, live workers' too. When the store answers again, a
// process waits a whole lease (in which live workers renew) before it takes
// up the jobs of holders that went away: a live worker's job stays its own.
func TestStoreOutageTakesNothingFromLiveWorkers(t *testing.T) {
	bothStores.Store(t.Name(), true) // a fleet's store: PostgreSQL
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		const lease = 1500 * time.Millisecond
		ctx := testCtx(t)
		// The worker, w9: a job it claimed, its leases renewed by hand.
		dir, store := processDir(t, t.TempDir(), "")
		job := &jobs.Job{ID: "job-outage", Key: "outage", CorrelationID: "outage", URL: site.URL("/jobs/article.html"), MaxTabs: 1,
			State: jobs.Queued, Created: time.Now(), Task: jobs.Task{Type: jobs.TaskNavigate}}
		if _, _, err := store.Create(ctx, job); err != nil {
			t.Fatal(err)
		}
		if j, err := store.Claim(ctx, "w9", lease); err != nil || j == nil || j.ID != job.ID {
			t.Fatalf("claim: %v %v", j, err)
		}
		var renewing atomic.Bool
		renewing.Store(true)
		stop := make(chan struct{})
		t.Cleanup(func() { close(stop) })
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(lease / 5):
				}
				if renewing.Load() {
					_, _ = store.Renew(context.Background(), jobstore.Worker{ID: "w9", MaxTabs: 1}, lease)
				}
			}
		}()

		// The serve, reaching the store through a connection that can be cut.
		url, _ := databases.Load(dir.Path)
		p := newSocketProxy(t, url.(string))
		serveStore, err := postgres.Open(ctx, p.url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { serveStore.Close() })
		serveDir, err := jobs.OpenDataDir(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { serveDir.Close() })
		q, err := jobs.Open(context.Background(), jobs.Config{Dir: serveDir, Store: serveStore, SubmitOnly: true, Worker: "serve", Lease: lease})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = q.Close() })
		time.Sleep(lease + lease/2)

		// The outage: nobody reaches the store for two leases; then the
		// serve does at once, and the worker (slower to come back) a little
		// later, within a lease.
		renewing.Store(false)
		p.cut(true)
		time.Sleep(2 * lease)
		p.cut(false)
		time.Sleep(lease / 2)
		renewing.Store(true)
		time.Sleep(2 * lease)
		j, err := store.Get(ctx, job.ID)
		if err != nil {
			t.Fatal(err)
		}
		if j.Worker != "w9" || j.State != jobs.Dispatched || j.Lease.IsZero() {
			t.Errorf("after the outage the live worker's job is %s, held by %q (lease %v): taken from it", j.State, j.Worker, j.Lease)
		}
	})
}

// socketProxy passes connections to a PostgreSQL server's Unix socket
// through a socket of its own, and can cut them (an outage for its clients
// alone).
type socketProxy struct {
	url    string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
	target string
}

func newSocketProxy(t *testing.T, dbURL string) *socketProxy {
	t.Helper()
	host := dbURL[strings.Index(dbURL, "host=")+len("host="):]
	host, _, _ = strings.Cut(host, "&")
	dir, err := os.MkdirTemp("", "pgp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	l, err := net.Listen("unix", filepath.Join(dir, ".s.PGSQL.5432"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	p := &socketProxy{url: strings.Replace(dbURL, "host="+host, "host="+dir, 1), target: filepath.Join(host, ".s.PGSQL.5432")}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			s, err := net.Dial("unix", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(s, c); s.Close() }()
			go func() { _, _ = io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

// cut ends every connection and refuses new ones (down), or lets them in.
func (p *socketProxy) cut(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}
