package jobs

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/internal/statedir"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
)

// DataDir is the directory a server keeps its jobs in: the store file, the
// browser profiles, the artifacts and the browsers' working profiles. One
// server uses it at a time (a lock file says which).
type DataDir struct {
	// Path is the directory, absolute.
	Path string
	lock *os.File
}

// DefaultDataDir is this user's own state folder (statedir.Dir):
// $XDG_STATE_HOME/cdpmcp, else ~/.local/state/cdpmcp, never a folder of
// another user's. OpenDataDir creates it private and refuses it when another
// user owns it or others can write in it.
func DefaultDataDir() string { return statedir.Dir() }

// ErrDataDirBusy is returned when another server holds the data directory.
var ErrDataDirBusy = errors.New("the data directory is in use by another cdpmcp")

// OpenDataDir creates dir if needed and takes it for this process. Browsers
// that a dead server started from it (and that still run) are ended first,
// with their process groups; they are recognised by their --user-data-dir
// inside dir, so no other process is touched.
func OpenDataDir(dir string) (*DataDir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("--data-dir %s: %w", dir, err)
	}
	// Private, and refused when someone else could plant files or links in
	// it: profiles, artifacts and the job store live there.
	for _, sub := range []string{"", "profiles", "artifacts", "run"} {
		if err := safefs.Dir(filepath.Join(abs, sub), "the data folder (--data-dir)"); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(filepath.Join(abs, "lock"), os.O_RDWR|os.O_CREATE|safefs.NoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--data-dir: %w", err)
	}
	if err := lockFile(f); err != nil {
		b, _ := os.ReadFile(f.Name())
		f.Close()
		return nil, fmt.Errorf("%w (%s, pid %s); give this server its own --data-dir", ErrDataDirBusy, abs, strings.TrimSpace(string(b)))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	d := &DataDir{Path: abs, lock: f}
	// An older cdpmcp keyed idempotency hashes of requests, passwords
	// included, with this file: with the hashes rewritten (jobs/sqlite),
	// it only helps someone check a password against a copy made before.
	_ = os.Remove(filepath.Join(abs, "key"))
	d.endOrphans()
	d.keepReserve()
	return d, nil
}

// Close releases the directory.
func (d *DataDir) Close() error {
	if d.lock == nil {
		return nil
	}
	err := d.lock.Close() // closing drops the flock
	d.lock = nil
	return err
}

// DBPath is the job store's file.
func (d *DataDir) DBPath() string { return DBPath(d.Path) }

// tenantDir is where a tenant's profiles and artifacts live: the data dir
// itself for the local user, tenants/NAME for a named token's.
func (d *DataDir) tenantDir(t string) string {
	if t == tenant.Local {
		return d.Path
	}
	return filepath.Join(d.Path, "tenants", t)
}

// ProfileDir is where tenant t's named profile keeps its browser state.
func (d *DataDir) ProfileDir(t, name string) string {
	return filepath.Join(d.tenantDir(t), "profiles", name)
}

// ArtifactDir is where the artifacts of tenant t's job go.
func (d *DataDir) ArtifactDir(t, jobID string) string {
	return filepath.Join(d.tenantDir(t), "artifacts", jobID)
}

// runDir holds the working profiles of browsers that keep no state.
func (d *DataDir) runDir() string { return filepath.Join(d.Path, "run") }

// endOrphans kills browsers left running by a server that died holding this
// directory, and removes what they leave behind: the working profiles under
// run/ and the profile locks of named profiles.
func (d *DataDir) endOrphans() {
	marker := []byte("--user-data-dir=" + d.Path + string(filepath.Separator))
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var killed []int
	for _, path := range procs {
		b, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(b, marker) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if err != nil || pid == os.Getpid() {
			continue
		}
		// Only the browser's main process leads its group (browserproc starts
		// it with Setpgid); its renderers are in that group.
		if !procgroup.Leader(pid) {
			continue
		}
		slog.Warn("ending a browser left running by an earlier server", "pid", pid, "dataDir", d.Path)
		procgroup.Kill(pid)
		killed = append(killed, pid)
	}
	// SIGKILL takes a moment to end every process of a group.
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range killed {
		for procgroup.Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if entries, err := os.ReadDir(d.runDir()); err == nil {
		for _, e := range entries {
			browserproc.RemoveSingletonDir(filepath.Join(d.runDir(), e.Name()))
			_ = os.RemoveAll(filepath.Join(d.runDir(), e.Name()))
		}
	}
	profiles, _ := filepath.Glob(filepath.Join(d.Path, "profiles", "*"))
	tenants, _ := filepath.Glob(filepath.Join(d.Path, "tenants", "*", "profiles", "*"))
	for _, dir := range append(profiles, tenants...) {
		browserproc.RemoveSingletonDir(dir)
		for _, lock := range []string{"SingletonLock", "SingletonSocket", "SingletonCookie"} {
			_ = os.Remove(filepath.Join(dir, lock))
		}
	}
}

// lockFile takes f's lock, trying for a second: a process this one is just
// starting can hold a copy of the descriptor until it executes.
func lockFile(f *os.File) error {
	var err error
	for range 20 {
		if err = tryLock(f); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// Served reports whether a server (cdpmcp serve or worker) holds data dir
// dir now, for a front door that queues jobs there without taking it: a
// job waits until one does. Asking takes the lock for an instant.
func Served(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|safefs.NoFollow, 0)
	if err != nil {
		return false // no server ever held it
	}
	defer f.Close() // closing drops the lock, had we taken it
	return tryLock(f) != nil
}

// DBPath is the job store's file in data dir dir, for readers that do not
// take the directory (cdpmcp jobs).
func DBPath(dir string) string { return filepath.Join(dir, "jobs.db") }
