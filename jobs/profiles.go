package jobs

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// Named profiles' browsers: one per profile, started by its first job, shut
// down once no job has used it for a while. On a shared store a profile is
// held by one worker at a time, reserved when a job of it is claimed here.

// profileIdle is how long a profile's browser stays up with no job in it;
// on a shared store, after which the profile may go to another worker.
const (
	profileIdle       = 2 * time.Minute
	sharedProfileIdle = 5 * time.Second
)

// profileBrowser is a named profile's browser and who uses it: jobs in it
// (users) and jobs claimed for it that have not started (reserved).
type profileBrowser struct {
	name     string             // in the store: see profileKey
	dir      string             // its directory here
	mgr      *cdpclient.Manager // nil until a job starts it
	synced   chan struct{}      // closed once its state is here
	syncErr  error
	users    int
	reserved int
	idle     *time.Timer
	closing  chan struct{} // closed once it has shut down
	killed   bool          // its last browser had to be killed: see shutdown

	cookiesMu  sync.Mutex
	cookiesFor *cdpclient.Browser // the browser given the saved cookies (profilecookies.go)
	endSaveMu  sync.Mutex         // one save at a job's end at a time (saveAtJobEnd)
}

// cookiesBack gives b, the profile's browser, the cookies its last job left,
// once: before the first job in it.
func (pb *profileBrowser) cookiesBack(b *cdpclient.Browser) {
	pb.cookiesMu.Lock()
	defer pb.cookiesMu.Unlock()
	if pb.cookiesFor == b {
		return
	}
	pb.cookiesFor = b
	if err := restoreCookies(b, pb.dir); err != nil {
		slog.Warn("could not give a profile's browser the cookies its last job left", "profile", pb.name, "err", err)
	}
}

// cookiesKept saves the cookies of b, the profile's browser, as a job in it
// ends (profilecookies.go).
func (pb *profileBrowser) cookiesKept(b *cdpclient.Browser) {
	if !b.Alive() {
		return
	}
	pb.cookiesMu.Lock()
	defer pb.cookiesMu.Unlock()
	if err := saveCookies(b, pb.dir); err != nil {
		slog.Warn("could not save a profile's cookies as its job ended", "profile", pb.name, "err", err)
	}
}

// idleTime is how long an unused profile browser stays up.
func (f *fleet) idleTime() time.Duration {
	if f.sync != nil {
		return sharedProfileIdle
	}
	return profileIdle
}

// profileBrowserOf returns the profile's browser entry, making it; f.mu held.
func (f *fleet) profileBrowserOf(t, name string) *profileBrowser {
	dir := f.dir.ProfileDir(t, name)
	pb := f.profiles[dir]
	if pb == nil {
		pb = &profileBrowser{name: jobstore.ProfileKey(t, name), dir: dir}
		f.profiles[dir] = pb
	}
	return pb
}

// claim runs a claim and reserves the claimed job's profile, before any
// release of it can happen.
func (f *fleet) claim(ctx context.Context, fn func(context.Context) (*Job, error)) (*Job, error) {
	f.claimMu.Lock()
	defer f.claimMu.Unlock()
	j, err := fn(ctx)
	if j != nil && j.Profile != "" {
		f.mu.Lock()
		pb := f.profileBrowserOf(j.Tenant, j.Profile)
		pb.reserved++
		pb.stopIdle()
		f.mu.Unlock()
	}
	return j, err
}

// unreserve ends a claimed job's reservation of its profile.
func (f *fleet) unreserve(t, profile string) {
	if profile == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if pb := f.profiles[f.dir.ProfileDir(t, profile)]; pb != nil && pb.reserved > 0 {
		pb.reserved--
		f.idleLater(pb)
	}
}

func (pb *profileBrowser) stopIdle() {
	if pb.idle != nil {
		pb.idle.Stop()
		pb.idle = nil
	}
}

// idleLater closes an unused profile browser after the idle time; f.mu held.
func (f *fleet) idleLater(pb *profileBrowser) {
	if pb.users == 0 && pb.reserved == 0 && !f.closed && pb.idle == nil {
		pb.idle = time.AfterFunc(f.idleTime(), func() { f.closeIdle(pb) })
	}
}

// useProfile counts a user of profile's browser, waiting for one that is
// shutting down, and fetches the profile's state first when it travels
// through the store.
func (f *fleet) useProfile(ctx context.Context, t, profile string) (*profileBrowser, error) {
	for {
		f.mu.Lock()
		if f.closed {
			f.mu.Unlock()
			return nil, cdpclient.ErrBrowserClosed
		}
		pb := f.profileBrowserOf(t, profile)
		if pb.closing != nil {
			ch := pb.closing
			f.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		pb.users++
		pb.stopIdle()
		start := pb.mgr == nil
		if start {
			opts := f.base
			opts.Endpoint = ""
			opts.Launch.UserDataDir = pb.dir
			opts.Launch.Args = append(append([]string(nil), opts.Launch.Args...), profileArgs()...)
			pb.mgr = cdpclient.NewManager(opts)
			pb.synced, pb.syncErr = make(chan struct{}), nil
		}
		f.mu.Unlock()
		if start {
			if f.sync != nil {
				pb.syncErr = f.sync.fetch(ctx, pb.name, pb.dir)
			}
			if pb.syncErr == nil {
				// The profile keeps no trace of where its jobs went.
				pb.syncErr = prepareProfile(pb.dir)
			}
			close(pb.synced)
		}
		return pb, nil
	}
}

func (f *fleet) closeIdle(pb *profileBrowser) {
	f.mu.Lock()
	pb.idle = nil
	if f.profiles[pb.dir] != pb || pb.users > 0 || pb.reserved > 0 || pb.closing != nil || f.closed {
		f.mu.Unlock()
		return
	}
	pb.closing = make(chan struct{})
	f.mu.Unlock()
	slog.Debug("closing an idle profile's browser", "profile", pb.name)
	pb.shutdown()
	if f.sync != nil {
		f.claimMu.Lock() // no claim of a job of it until it is saved
		f.mu.Lock()
		keep := pb.reserved > 0
		f.mu.Unlock()
		f.saveProfile(pb, !keep)
		f.claimMu.Unlock()
	}
	f.mu.Lock()
	ch := pb.closing
	pb.mgr, pb.closing = nil, nil
	if pb.users == 0 && pb.reserved == 0 {
		delete(f.profiles, pb.dir)
	}
	f.mu.Unlock()
	close(ch)
}

// profileExit is how long a profile's browser has to exit by itself once
// asked, writing its cookies and storage to disk, before it is killed. It is
// long: on a loaded machine a clean exit takes many seconds, and a kill loses
// the profile's last sign-in (the next worker to load it finds it signed out).
const profileExit = 30 * time.Second

// shutdown lets the profile's browser exit by itself, so its cookies and
// storage reach the disk, then closes the manager and leaves in the folder
// only what the profile keeps (pruneProfile). It reports whether the browser
// exited by itself.
func (pb *profileBrowser) shutdown() (exited bool) { return pb.shutdownWithin(profileExit) }

// shutdownWithin is shutdown giving the browser wait to exit by itself.
func (pb *profileBrowser) shutdownWithin(wait time.Duration) (exited bool) {
	if pb.mgr == nil {
		return true
	}
	exited = true
	if b := pb.mgr.Current(); b != nil {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		exited = b.Shutdown(ctx)
		cancel()
	}
	pb.killed = !exited // the process warned, with its folder; saveProfile warns by name
	pb.mgr.Close()
	if err := pruneProfile(pb.dir); err != nil {
		slog.Warn("could not clear a profile's folder of what it does not keep", "profile", pb.name, "err", err)
	}
	return exited
}

// saveProfile stores the profile's state for other workers (release) or for
// this one; f.sync set. A profile whose browser was killed is handed on as
// the browser left it on disk, which is at least the state it was fetched
// with, and saying so: it may lack its last sign-ins.
func (f *fleet) saveProfile(pb *profileBrowser, release bool) {
	if pb.killed {
		slog.Warn("saving a profile whose browser was killed: it is stored as that browser left it on disk, and may lack the last sign-ins and cookies of its last job",
			"profile", pb.name, "released", release)
	}
	f.sync.save(pb.name, pb.dir, release, 30*time.Second)
}

// saveAtJobEnd stores the profile's state in a shared store as a job of it
// ends, before its end is recorded, keeping the profile: a worker killed
// after a job SUCCEEDED (before the idle save) would otherwise hand the next
// worker the state before that job, without its sign-in. The cookies are
// those cookiesKept just wrote; the rest of the folder is as the running
// browser last wrote it (the save at idle, once it has exited, is whole).
// It costs the packing of the profile's folder (a few KB to a few hundred)
// and one write: 3 to 110 ms for 2 KB on the loaded 2-core test machine. The
// store has 5 s to take it; a failure is logged and the job ends all the
// same (the idle save tries again).
func (f *fleet) saveAtJobEnd(pb *profileBrowser) {
	if f.sync == nil {
		return
	}
	pb.endSaveMu.Lock()
	defer pb.endSaveMu.Unlock()
	f.sync.save(pb.name, pb.dir, false, 5*time.Second)
}
