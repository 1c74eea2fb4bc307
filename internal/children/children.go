// Package children starts the processes cdpmcp runs (browsers, ffmpeg) so that
// none outlives it: each is marked as ours in its environment, is told to end
// when cdpmcp dies, and if that fails (cdpmcp killed with -9 while it ran a
// browser that ignores the signal), the next cdpmcp finds it by its mark and
// ends it. Processes of other programs, and of a cdpmcp that still runs, are
// never touched.
package children

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// envKey marks a process (and, by inheritance, every process it starts) with
// the cdpmcp that started it: "<pid>.<start time in clock ticks>", so a pid
// used again by another program does not count as the owner.
const envKey = "CDPMCP_OWNER"

var (
	selfOnce sync.Once
	self     string
)

// Mark is the environment entry that marks a process as this cdpmcp's.
func Mark() string {
	selfOnce.Do(func() { self = token(os.Getpid()) })
	return envKey + "=" + self
}

// Start starts cmd in a process group of its own, marked as ours, with sig
// sent to it should cdpmcp die first. It waits for cmd in the background on a
// thread of its own (the parent-death signal follows the thread that started
// the process, so that thread must live as long as cmd) and calls exited, if
// not nil, with cmd.Wait's result once cmd has ended.
func Start(cmd *exec.Cmd, sig syscall.Signal, exited func(error)) error {
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	env := cmd.Env[:0:0]
	for _, kv := range cmd.Env {
		if !strings.HasPrefix(kv, envKey+"=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, Mark())
	prepare(cmd, sig)
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		err := cmd.Wait()
		if exited != nil {
			exited(err)
		}
	}()
	return <-started
}

// Orphan is a process a dead cdpmcp left running.
type Orphan struct {
	PID  int
	Name string
	// Profile is the --user-data-dir on its command line, if any.
	Profile string
}

// ownerIn returns the owner token in a NUL-separated environment, or "".
func ownerIn(env []byte) string {
	prefix := []byte(envKey + "=")
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, prefix); ok {
			return string(v)
		}
	}
	return ""
}

// ownerFile, in a directory, names the cdpmcp that made it for itself, and
// the process group that uses it: "<owner token> <pgid>".
const ownerFile = ".cdpmcp-owner"

// Claim marks dir as made by this cdpmcp for the process group pgid (0 when
// not started yet), so that the next cdpmcp removes it, after ending what is
// left of the group, if this one dies without doing so (Abandoned).
func Claim(dir string, pgid int) error {
	owner := strings.TrimPrefix(Mark(), envKey+"=")
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner+" "+strconv.Itoa(pgid)), 0o600)
}

// AbandonedDir is a directory a cdpmcp that no longer runs claimed.
type AbandonedDir struct {
	Path string
	// PGID is the process group that used it, or 0.
	PGID int
}

// Abandoned returns the directories matching pattern that a cdpmcp which no
// longer runs claimed. Directories nobody claimed are never returned.
func Abandoned(pattern string) []AbandonedDir {
	dirs, _ := filepath.Glob(pattern)
	var out []AbandonedDir
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue
		}
		owner, group, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
		if ownerAlive(owner) {
			continue
		}
		pgid, _ := strconv.Atoi(group)
		out = append(out, AbandonedDir{Path: d, PGID: pgid})
	}
	return out
}

// String describes the orphan for a log line.
func (o Orphan) String() string {
	return fmt.Sprintf("%s (pid %d)", o.Name, o.PID)
}
