package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
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
	spare    []*cdpclient.BrowserContext // scrubbed isolated contexts for the next jobs
	maxSpare int
	profiles map[string]*profileBrowser
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

// context returns a browser context for a job in profile ("" for none) and a
// release function the job must call when done with it, with all its tabs
// closed. release(true) says the job scrubbed what it stored (see
// scrubOrigins), so an isolated context may serve the next job; creating a
// context costs a renderer process, about half of a short job's CPU.
func (f *fleet) context(ctx context.Context, profile string) (*cdpclient.BrowserContext, func(reuse bool), error) {
	if profile == "" {
		return f.anonContext(ctx)
	}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, nil, cdpclient.ErrBrowserClosed
	}
	pb := f.profiles[profile]
	if pb == nil {
		opts := f.base
		opts.Endpoint = ""
		opts.Launch.UserDataDir = f.dir.ProfileDir(profile)
		pb = &profileBrowser{mgr: cdpclient.NewManager(opts)}
		f.profiles[profile] = pb
	}
	pb.users++
	if pb.idle != nil {
		pb.idle.Stop()
		pb.idle = nil
	}
	f.mu.Unlock()
	release := func(bool) {
		f.mu.Lock()
		defer f.mu.Unlock()
		pb.users--
		if pb.users == 0 && !f.closed {
			pb.idle = time.AfterFunc(profileIdle, func() { f.closeIdle(profile, pb) })
		}
	}
	b, err := pb.mgr.Browser(ctx)
	if err != nil {
		release(false)
		return nil, nil, fmt.Errorf("start the browser of profile %q: %w", profile, err)
	}
	return b.Default(), release, nil
}

func (f *fleet) anonContext(ctx context.Context) (*cdpclient.BrowserContext, func(bool), error) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, nil, cdpclient.ErrBrowserClosed
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
	var bc *cdpclient.BrowserContext
	for len(f.spare) > 0 && bc == nil {
		bc = f.spare[len(f.spare)-1]
		f.spare = f.spare[:len(f.spare)-1]
		if !bc.Browser().Alive() {
			bc = nil
		}
	}
	f.mu.Unlock()
	if bc == nil {
		b, err := mgr.Browser(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("start the jobs' browser: %w", err)
		}
		if bc, err = b.NewContext(ctx); err != nil {
			return nil, nil, err
		}
	}
	return bc, func(reuse bool) { f.releaseAnon(bc, reuse) }, nil
}

// releaseAnon keeps a scrubbed context with no tab left for the next job, once
// its cookies are cleared too; otherwise it disposes of it.
func (f *fleet) releaseAnon(bc *cdpclient.BrowserContext, reuse bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if reuse && len(bc.Pages()) == 0 && bc.Browser().Alive() {
		args, _ := json.Marshal(map[string]string{"browserContextId": bc.ID()})
		if _, err := bc.Browser().Raw(ctx, "Storage.clearCookies", args); err == nil {
			f.mu.Lock()
			if !f.closed && len(f.spare) < f.maxSpare {
				f.spare = append(f.spare, bc)
				f.mu.Unlock()
				return
			}
			f.mu.Unlock()
		}
	}
	if err := bc.Close(ctx); err != nil {
		slog.Debug("close a job's browser context", "err", err)
	}
}

func (f *fleet) closeIdle(profile string, pb *profileBrowser) {
	f.mu.Lock()
	if f.profiles[profile] != pb || pb.users > 0 {
		f.mu.Unlock()
		return
	}
	delete(f.profiles, profile)
	f.mu.Unlock()
	slog.Debug("closing an idle profile's browser", "profile", profile)
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
