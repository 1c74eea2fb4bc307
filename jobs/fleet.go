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
)

// profileIdle is how long a profile's browser stays up with no job in it.
const profileIdle = 2 * time.Minute

// fleet hands out browser contexts for jobs. Jobs without a profile get a fresh
// isolated context (no cookies shared with anything) in one shared browser.
// A named profile gets its own browser launched on the profile's directory
// under the data dir, so its cookies and storage persist; the jobs of that
// profile share its one context, and no other browser opens that directory
// while it runs.
type fleet struct {
	base cdpclient.Options
	dir  *DataDir

	mu       sync.Mutex
	anon     *cdpclient.Manager
	anonDir  string
	spare    []*spareTab // scrubbed isolated contexts and their tabs, for the next jobs
	maxSpare int
	profiles map[string]*profileBrowser // by profile directory
	closed   bool
}

type profileBrowser struct {
	mgr   *cdpclient.Manager
	users int
	idle  *time.Timer
}

func newFleet(base cdpclient.Options, dir *DataDir, maxSpare int) *fleet {
	// Job browsers have no window: a horde of windows helps no one, and the
	// human handoff shows a tab through a screencast.
	base.Launch.Headless = true
	base.Tracer = nil
	return &fleet{base: base, dir: dir, profiles: map[string]*profileBrowser{}, maxSpare: maxSpare}
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
	tenant string // only its jobs take it: a context keeps its HTTP cache
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
	dir := f.dir.ProfileDir(tenant, profile)
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, cdpclient.ErrBrowserClosed
	}
	pb := f.profiles[dir]
	if pb == nil {
		opts := f.base
		opts.Endpoint = ""
		opts.Launch.UserDataDir = dir
		pb = &profileBrowser{mgr: cdpclient.NewManager(opts)}
		f.profiles[dir] = pb
	}
	pb.users++
	if pb.idle != nil {
		pb.idle.Stop()
		pb.idle = nil
	}
	f.mu.Unlock()
	release := func(keep *cdpclient.Page) {
		if keep != nil {
			_ = closeTab(keep) // tabs of a shared profile context are not lent on
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		pb.users--
		if pb.users == 0 && !f.closed {
			pb.idle = time.AfterFunc(profileIdle, func() { f.closeIdle(dir, pb) })
		}
	}
	b, err := pb.mgr.Browser(ctx)
	if err != nil {
		release(nil)
		return nil, fmt.Errorf("start the browser of profile %q: %w", profile, err)
	}
	return &lease{bc: b.Default(), done: release}, nil
}

func (f *fleet) anonContext(ctx context.Context, tenant string) (*lease, error) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, cdpclient.ErrBrowserClosed
	}
	if f.anon == nil {
		opts := f.base
		if opts.Endpoint == "" {
			// Under the data dir, so a browser orphaned by a crash is found.
			f.anonDir = filepath.Join(f.dir.runDir(), "browser-"+strconv.Itoa(os.Getpid()))
			opts.Launch.UserDataDir = f.anonDir
		}
		f.anon = cdpclient.NewManager(opts)
	}
	mgr := f.anon
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
	f.mu.Unlock()
	if sp == nil {
		b, err := mgr.Browser(ctx)
		if err != nil {
			return nil, fmt.Errorf("start the jobs' browser: %w", err)
		}
		bc, err := b.NewContext(ctx)
		if err != nil {
			return nil, err
		}
		sp = &spareTab{bc: bc}
	}
	bc := sp.bc
	return &lease{bc: bc, tab: sp.tab, done: func(keep *cdpclient.Page) { f.releaseAnon(bc, keep, tenant) }}, nil
}

// releaseAnon keeps a context whose only tab the job scrubbed for the next
// job, once the context's cookies are cleared too; otherwise it disposes of it.
func (f *fleet) releaseAnon(bc *cdpclient.BrowserContext, keep *cdpclient.Page, tenant string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if keep != nil && len(bc.Pages()) == 1 && bc.Browser().Alive() {
		args, _ := json.Marshal(map[string]string{"browserContextId": bc.ID()})
		if _, err := bc.Browser().Raw(ctx, "Storage.clearCookies", args); err == nil {
			f.mu.Lock()
			if !f.closed && len(f.spare) < f.maxSpare {
				f.spare = append(f.spare, &spareTab{bc: bc, tab: keep, tenant: tenant})
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

func (f *fleet) closeIdle(dir string, pb *profileBrowser) {
	f.mu.Lock()
	if f.profiles[dir] != pb || pb.users > 0 {
		f.mu.Unlock()
		return
	}
	delete(f.profiles, dir)
	f.mu.Unlock()
	slog.Debug("closing an idle profile's browser", "profile", dir)
	pb.shutdown()
}

// shutdown lets the profile's browser exit by itself, so its cookies and
// storage reach the disk, then closes the manager.
func (pb *profileBrowser) shutdown() {
	if b := pb.mgr.Current(); b != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		b.Shutdown(ctx)
		cancel()
	}
	pb.mgr.Close()
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
	if anon != nil {
		wg.Go(anon.Close)
	}
	for _, pb := range profiles {
		if pb.idle != nil {
			pb.idle.Stop()
		}
		wg.Go(pb.shutdown)
	}
	wg.Wait()
	if f.anonDir != "" {
		_ = os.RemoveAll(f.anonDir)
	}
}
