package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// storeGuard makes the store's failures say which store failed and what to
// do: a store that cannot be written or read is cdpmcp's own failure
// (INTERNAL), never a page's. When a job's end cannot be written because the
// disk is full, it frees the data dir's reserve once and tries again, so that
// the ends of the jobs running then can still be recorded.
type storeGuard struct {
	Store
	name string // the store's file
	dir  *DataDir
}

var _ Store = storeGuard{}

func (g storeGuard) Create(ctx context.Context, j *Job) (*Job, bool, error) {
	stored, created, err := g.Store.Create(ctx, j)
	return stored, created, g.fail("write", err)
}

func (g storeGuard) Update(ctx context.Context, id string, from []State, change func(*Job)) (*Job, error) {
	j, err := g.Store.Update(ctx, id, from, change)
	if err != nil && ctx.Value(reserveKey{}) != nil && g.retry(err) {
		j, err = g.Store.Update(ctx, id, from, change)
	}
	return j, g.fail("write", err)
}

func (g storeGuard) UpdateHeld(ctx context.Context, id, worker string, from []State, change func(*Job)) (*Job, error) {
	j, err := g.Store.UpdateHeld(ctx, id, worker, from, change)
	if err != nil && ctx.Value(reserveKey{}) != nil && g.retry(err) {
		j, err = g.Store.UpdateHeld(ctx, id, worker, from, change)
	}
	return j, g.fail("write", err)
}

func (g storeGuard) Get(ctx context.Context, id string) (*Job, error) {
	j, err := g.Store.Get(ctx, id)
	return j, g.fail("read", err)
}

func (g storeGuard) List(ctx context.Context, f jobstore.Filter) ([]*Job, error) {
	js, err := g.Store.List(ctx, f)
	return js, g.fail("read", err)
}

// reserveKey marks the context of a write that may use the reserve: the
// record of a job's end. Submits and progress notes may not: on a full disk
// they fail, or are skipped.
type reserveKey struct{}

func mayUseReserve(ctx context.Context) context.Context {
	return context.WithValue(ctx, reserveKey{}, true)
}

// retry frees the reserve when err says the disk is full, and reports
// whether there was one to free.
func (g storeGuard) retry(err error) bool {
	if !diskFull(err) || g.dir == nil || !g.dir.releaseReserve() {
		return false
	}
	slog.Error("the disk of the data dir is full: freed its reserve so the job store can go on recording; free space on it", "dir", g.dir.Path)
	return true
}

// fail explains err, a failure to read or write the store; answers that are
// part of the store's contract (no such job, a state that does not allow the
// change) and a caller who gave up pass as they are.
func (g storeGuard) fail(op string, err error) error {
	var se *jobstore.StateError
	switch {
	case err == nil, errors.Is(err, jobstore.ErrNotFound), errors.Is(err, jobstore.ErrNotHeld), errors.As(err, &se), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case jobstore.Unreachable(err):
		return &cdpclient.Error{Code: cdpclient.CodeInternal, Err: err,
			Msg:  fmt.Sprintf("the job store %s could not be reached: %v", g.name, err),
			Hint: unreachableHint}
	case storeBusy(err):
		return g.busyError(op, err)
	case diskFull(err):
		return &cdpclient.Error{Code: cdpclient.CodeInternal, Err: err,
			Msg:  fmt.Sprintf("the job store %s could not be written: the disk is full (%v)", g.name, err),
			Hint: fmt.Sprintf("free space on the disk of %s (df -h %s); the jobs stored so far are kept and can still be read", filepath.Dir(g.name), filepath.Dir(g.name))}
	}
	return &cdpclient.Error{Code: cdpclient.CodeInternal, Err: err,
		Msg:  fmt.Sprintf("the job store %s could not be %s: %v", g.name, map[string]string{"read": "read", "write": "written"}[op], err),
		Hint: "the store's file may be damaged or unreadable: check it (cdpmcp leaves it untouched); the server log has more"}
}

// unreachableHint says what to do when the store's database did not answer.
const unreachableHint = "the job database did not answer (stopped, restarting, failing over, or cut off from this host): " +
	"check that it runs and that this host reaches it (pg_isready); the jobs stored are kept. " +
	"Calling again is safe: a submit retried with the same correlationId makes one job, never two"

// diskFull reports whether err says the disk is full: the operating
// system's ENOSPC or a database's own code for it (SQLite's SQLITE_FULL).
func diskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) && coded.Code()&0xff == 13 { // SQLITE_FULL
		return true
	}
	return strings.Contains(err.Error(), "disk is full") || strings.Contains(err.Error(), "no space left")
}

// reserveBytes is the space a data dir keeps for the job store to go on
// recording when its disk fills up.
const reserveBytes = 2 << 20

func (d *DataDir) reservePath() string { return filepath.Join(d.Path, "reserve") }

// keepReserve makes sure the data dir holds its reserve; on a disk already
// full there is none, and that is only logged.
func (d *DataDir) keepReserve() {
	if st, err := os.Stat(d.reservePath()); err == nil && st.Size() == reserveBytes {
		return
	}
	if err := writeZeros(d.reservePath(), reserveBytes); err != nil {
		_ = os.Remove(d.reservePath())
		slog.Warn("no room for the data dir's reserve", "dir", d.Path, "err", err)
	}
}

// releaseReserve removes the reserve and reports whether there was one.
func (d *DataDir) releaseReserve() bool {
	return os.Remove(d.reservePath()) == nil
}

func writeZeros(path string, n int) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(make([]byte, n))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
