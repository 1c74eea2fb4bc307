package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
)

// fleet hands out browser contexts for jobs. Jobs without a profile get a fresh
// isolated context (no cookies shared with anything) in one shared browser.
// A named profile gets its own browser launched on the profile's directory
// under the data dir, so its cookies and storage persist; the jobs of that
// profile share its one context, and no other browser opens that directory
// while it runs. On a shared store the profile's state travels through the
// store (see profileSync): one worker holds a profile at a time.
type fleet struct {
	base cdpclient.Options
	dir  *DataDir
	sync *profileSync // nil: profiles stay in the data dir
	// claimMu orders this process's claims with its profile releases, so a
	// profile is never released while a job of it was just claimed here.
	claimMu sync.Mutex

	mu       sync.Mutex
	anon     []*poolBrowser // jobs without a profile run here: a pool, or one launched
	anonDir  string
	spare    []*spareTab // scrubbed isolated contexts and their tabs, for the next jobs
	maxSpare int
	profiles map[string]*profileBrowser // by profile directory
	closed   bool
	pool     pooled // with a browser service, the browsers jobs hold (browserpool.go)
}

// poolBrowser is a browser jobs without a profile share, and how many of
// them it has now.
type poolBrowser struct {
	mgr   *cdpclient.Manager
	users int
}

// jobBrowserTracer sees the CDP messages of job browsers: nil (the server's
// --trace is its own browser's), a counter in BenchmarkThroughput.
var jobBrowserTracer cdpconn.Tracer

// newFleet makes the fleet; with endpoints, jobs without a profile run in
// those browsers (a pool), each job in the least busy.
func newFleet(base cdpclient.Options, dir *DataDir, maxSpare int, sync *profileSync, endpoints []string) *fleet {
	// Job browsers have no window: a horde of windows helps no one, and the
	// human handoff shows a tab through a screencast.
	base.Launch.Headless = true
	base.Tracer = jobBrowserTracer
	f := &fleet{base: base, dir: dir, sync: sync, profiles: map[string]*profileBrowser{}, maxSpare: maxSpare}
	for _, ep := range endpoints {
		opts := base
		opts.Endpoint = ep
		f.anon = append(f.anon, &poolBrowser{mgr: cdpclient.NewManager(opts)})
	}
	return f
}

// lease is a browser context lent to one job, with the tab it may start from.
type lease struct {
	bc *cdpclient.BrowserContext
	// tab is a scrubbed tab an earlier job of the same tenant left, or nil:
	// open one.
	tab *cdpclient.Page
	// done returns the context; keep is the job's scrubbed tab to leave for
	// the next job, or nil when the job closed its tabs.
	done func(keep *cdpclient.Page)
}

// spareTab is a scrubbed isolated context and its tab, waiting for a job.
type spareTab struct {
	bc     *cdpclient.BrowserContext
	tab    *cdpclient.Page
	tenant string       // only its jobs take it: a context keeps its HTTP cache
	pool   *poolBrowser // the browser it is in
}

// context lends a browser context to a job of tenant in profile ("" for
// none). Each tenant has its own profiles: the same name is another folder
// and another browser. A job without a profile may get the context and tab of
// an earlier one of its tenant, scrubbed of everything it stored: a new tab
// costs a renderer process, about two thirds of a short job's CPU.
func (f *fleet) context(ctx context.Context, tenant, profile string) (*lease, error) {
	if profile == "" {
		return f.anonContext(ctx, tenant)
	}
	pb, err := f.useProfile(ctx, tenant, profile)
	if err != nil {
		return nil, err
	}
	release := func(keep *cdpclient.Page) {
		if keep != nil {
			_ = closeTab(keep) // tabs of a shared profile context are not lent on
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		pb.users--
		f.idleLater(pb)
	}
	<-pb.synced
	if pb.syncErr != nil {
		release(nil)
		return nil, pb.syncErr
	}
	b, err := pb.mgr.Browser(ctx)
	if err != nil {
		release(nil)
		return nil, &unavailableError{what: fmt.Sprintf("start the browser of profile %q", profile), err: err}
	}
	pb.cookiesBack(b)
	return &lease{bc: b.Default(), done: func(keep *cdpclient.Page) {
		pb.cookiesKept(b)
		f.saveAtJobEnd(pb)
		release(keep)
	}}, nil
}

func (f *fleet) anonContext(ctx context.Context, tenant string) (*lease, error) {
	if f.base.Pool {
		return f.poolContext(ctx) // a browser of its own per job (browserpool.go)
	}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, cdpclient.ErrBrowserClosed
	}
	if len(f.anon) == 0 {
		opts := f.base
		if opts.Endpoint == "" {
			// Under the data dir, so a browser orphaned by a crash is found.
			f.anonDir = filepath.Join(f.dir.runDir(), "browser-"+strconv.Itoa(os.Getpid()))
			opts.Launch.UserDataDir, opts.Launch.Disposable = f.anonDir, true
		}
		f.anon = []*poolBrowser{{mgr: cdpclient.NewManager(opts)}}
	}
	var sp *spareTab
	for i := len(f.spare) - 1; i >= 0 && sp == nil; i-- {
		if f.spare[i].tenant != tenant {
			continue
		}
		sp = f.spare[i]
		f.spare = slices.Delete(f.spare, i, i+1)
		if !sp.bc.Browser().Alive() || sp.tab.Usable() != nil {
			go f.dispose(sp.bc, sp.tab)
			sp = nil
		}
	}
	var pb *poolBrowser
	if sp != nil {
		pb = sp.pool
	} else {
		pb = f.anon[0]
		for _, o := range f.anon[1:] {
			if o.users < pb.users {
				pb = o
			}
		}
	}
	pb.users++
	f.mu.Unlock()
	if sp == nil {
		b, err := pb.mgr.Browser(ctx)
		if err == nil {
			var bc *cdpclient.BrowserContext
			if bc, err = b.NewContext(ctx); err == nil {
				sp = &spareTab{bc: bc, pool: pb}
			}
		}
		if err != nil {
			f.mu.Lock()
			pb.users--
			f.mu.Unlock()
			return nil, &unavailableError{what: "start the jobs' browser", err: err}
		}
	}
	sp.tenant = tenant
	return &lease{bc: sp.bc, tab: sp.tab, done: func(keep *cdpclient.Page) { f.releaseAnon(sp, keep) }}, nil
}

// releaseAnon keeps a context whose only tab the job scrubbed for the next
// job, once the context's cookies are cleared too; otherwise it disposes of it.
func (f *fleet) releaseAnon(sp *spareTab, keep *cdpclient.Page) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f.mu.Lock()
	sp.pool.users--
	f.mu.Unlock()
	bc := sp.bc
	if keep != nil && len(bc.Pages()) == 1 && bc.Browser().Alive() {
		args, _ := json.Marshal(map[string]string{"browserContextId": bc.ID()})
		if _, err := bc.Browser().Raw(ctx, "Storage.clearCookies", args); err == nil {
			f.mu.Lock()
			if !f.closed && len(f.spare) < f.maxSpare {
				f.spare = append(f.spare, &spareTab{bc: bc, tab: keep, tenant: sp.tenant, pool: sp.pool})
				f.mu.Unlock()
				return
			}
			f.mu.Unlock()
		}
	}
	f.dispose(bc, keep)
}

func (f *fleet) dispose(bc *cdpclient.BrowserContext, tab *cdpclient.Page) {
	if tab != nil {
		_ = closeTab(tab)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := bc.Close(ctx); err != nil {
		slog.Debug("close a job's browser context", "err", err)
	}
}

// spareTabs counts the scrubbed tabs kept for the next jobs.
func (f *fleet) spareTabs() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.spare)
}

// close shuts every browser down and blocks until they are gone.
func (f *fleet) close() {
	f.mu.Lock()
	f.closed = true
	f.spare = nil
	anon := f.anon
	profiles := f.profiles
	f.profiles = map[string]*profileBrowser{}
	f.mu.Unlock()
	var wg sync.WaitGroup
	wg.Go(f.pool.close)
	for _, pb := range anon {
		wg.Go(pb.mgr.Close)
	}
	for _, pb := range profiles {
		pb.stopIdle()
		wg.Go(func() {
			if pb.closing != nil {
				<-pb.closing // closeIdle saves it
				return
			}
			pb.shutdown()
			if f.sync != nil && pb.mgr != nil {
				f.saveProfile(pb, true)
			}
		})
	}
	wg.Wait()
	if f.anonDir != "" {
		_ = os.RemoveAll(f.anonDir)
	}
}
