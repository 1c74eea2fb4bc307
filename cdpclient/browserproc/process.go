package browserproc

import (
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
)

// Process is a browser started by Launch, running in its own process group.
type Process struct {
	cmd     *exec.Cmd
	tempDir string // removed on close; empty when the user chose the profile
	profile string // the --user-data-dir in use
	// disposable browsers are killed at once on close: their profile goes.
	disposable bool
	headless   bool // started without a window
	wsURL      string
	exited     chan struct{}
	stderr     *tailBuffer

	closeOnce sync.Once
}

// Endpoint is the browser's DevTools websocket URL.
func (p *Process) Endpoint() string { return p.wsURL }

// Exited is closed once the browser's main process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitStatus says how the browser exited ("exit status 1", "signal: killed");
// read it once Exited is closed.
func (p *Process) ExitStatus() string { return p.cmd.ProcessState.String() }

// Killed reports, once Exited is closed, whether the browser was ended by
// SIGKILL (by Close, as it did not exit in time, or by the system): it had no
// chance to write its profile.
func (p *Process) Killed() bool {
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// PID is the process id of the browser, the leader of its process group.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Executable is the browser's executable file.
func (p *Process) Executable() string { return p.cmd.Path }

// Profile is the --user-data-dir the browser runs on.
func (p *Process) Profile() string { return p.profile }

// Headless reports whether the browser runs without a window (asked for, or
// forced by a machine without a display): its clipboard is its own, not the
// system's.
func (p *Process) Headless() bool { return p.headless }

// Disposable reports whether the browser's profile is thrown away when it
// closes (a temporary one, or Options.Disposable): Close ends it at once.
func (p *Process) Disposable() bool { return p.disposable }

// keptProfileExit is how long a browser whose profile is kept has, after
// SIGTERM, to write that profile (cookies, storage) and exit before it is
// killed: long, since on a loaded machine a clean exit takes seconds, and a
// kill can lose what the user had.
const keptProfileExit = 30 * time.Second

// Close ends the whole process group (SIGTERM, then SIGKILL after
// keptProfileExit, with a warning that the profile's last state may be lost;
// a disposable browser SIGKILL at once), waits for the main process and
// removes a temporary profile. It is safe to call more than once.
func (p *Process) Close() {
	p.closeOnce.Do(func() {
		pgid := p.cmd.Process.Pid
		if p.disposable {
			procgroup.Kill(pgid) // nothing of its profile is kept: no need to let it save
		} else {
			procgroup.Terminate(pgid)
		}
		select {
		case <-p.exited:
		case <-time.After(keptProfileExit):
			if !p.disposable {
				slog.Warn("the browser did not exit by itself in time and was killed: the last state of its profile (cookies, storage) may not be saved",
					"profile", p.profile, "waited", keptProfileExit)
			}
			procgroup.Kill(pgid)
			<-p.exited
		}
		// Children (renderers, zygotes) may outlive the main process briefly.
		deadline := time.Now().Add(2 * time.Second)
		for procgroup.Alive(pgid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if procgroup.Alive(pgid) {
			procgroup.Kill(pgid)
		}
		RemoveSingletonDir(p.profile) // left in TMPDIR by a browser that had to be killed
		p.removeTemp()
	})
}

func (p *Process) removeTemp() {
	if p.tempDir == "" {
		return
	}
	// Chromium may still be flushing files while it dies; retry briefly.
	for range 20 {
		if err := os.RemoveAll(p.tempDir); err == nil {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	slog.Warn("could not remove temporary profile", "dir", p.tempDir)
}
