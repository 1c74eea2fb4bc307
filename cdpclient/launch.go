package cdpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/internal/children"
)

// LaunchOptions says how to start a browser.
type LaunchOptions struct {
	// Path is the browser executable; empty means the first FindBrowser finds:
	// chromium, chromium-browser, google-chrome or google-chrome-stable on
	// PATH, then where Chrome, Chromium and Edge install on macOS and Windows.
	Path string
	// UserDataDir is the profile directory; empty means a fresh temporary directory
	// that is removed when the browser closes.
	UserDataDir string
	// Headless runs without a window. It is forced when no display is available.
	Headless bool
	// Args are extra command-line flags passed to the browser as they are.
	Args []string
	// Disposable says the profile is thrown away once the browser closes, so
	// it is ended at once instead of asked to exit and save its state. A
	// temporary profile (no UserDataDir) always is.
	Disposable bool
}

// requiredFlags keep Chromium off the network and quiet on machines without internet.
var requiredFlags = []string{
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-quic",
	"--disable-default-apps",
	"--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
	"--password-store=basic",
	"--use-mock-keychain",
	// Tabs in the background must keep running: the model acts on any of them.
	"--disable-background-timer-throttling",
	"--disable-backgrounding-occluded-windows",
	"--disable-renderer-backgrounding",
}

// process is a browser started by Launch, running in its own process group.
type process struct {
	cmd     *exec.Cmd
	tempDir string // removed on close; empty when the user chose the profile
	profile string // the --user-data-dir in use
	// disposable browsers are killed at once on close: their profile goes.
	disposable bool
	wsURL      string
	exited     chan struct{}
	stderr     *tailBuffer

	closeOnce sync.Once
}

// launchArgs are the browser's flags: ours, then the user's (Chromium takes the
// last of a repeated flag), then cdpmcp's network flags last, so that none of
// the user's can undo them.
func launchArgs(opts LaunchOptions, userDataDir string, network []string) []string {
	args := []string{"--remote-debugging-port=0", "--user-data-dir=" + userDataDir}
	args = append(args, requiredFlags...)
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	if opts.Headless || headlessNeeded() {
		args = append(args, "--headless", "--hide-scrollbars", "--mute-audio")
	}
	args = append(args, opts.Args...)
	args = append(args, network...)
	return append(args, "about:blank")
}

// LaunchError says the browser could not be started, and what to do about it.
type LaunchError struct {
	Err  error
	Hint string
}

func (e *LaunchError) Error() string { return "the browser could not be started: " + e.Err.Error() }
func (e *LaunchError) Unwrap() error { return e.Err }

// launch starts the browser and waits until its DevTools endpoint is known.
// network are flags that must win over the user's (the egress proxy). Its
// failures are *LaunchError.
func launch(ctx context.Context, opts LaunchOptions, network []string) (*process, error) {
	p, err := start(ctx, opts, network)
	var le *LaunchError
	if err != nil && ctx.Err() == nil && !errors.As(err, &le) {
		return nil, &LaunchError{Err: err, Hint: launchHint}
	}
	return p, err
}

func start(ctx context.Context, opts LaunchOptions, network []string) (*process, error) {
	exe, err := FindBrowser(opts.Path)
	if err != nil {
		return nil, err
	}
	p := &process{exited: make(chan struct{}), stderr: &tailBuffer{max: 4096}}
	dir := opts.UserDataDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "cdpmcp-profile-"); err != nil {
			return nil, fmt.Errorf("create profile dir: %w", err)
		}
		p.tempDir = dir
		// Ours to remove; the next cdpmcp removes it if we die first.
		if err := children.Claim(dir, 0); err != nil {
			p.removeTemp()
			return nil, fmt.Errorf("create profile dir: %w", err)
		}
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, &LaunchError{Err: fmt.Errorf("--user-data-dir %s: %w", dir, err), Hint: "pass a directory this user can create and write to"}
	}
	p.profile = dir
	p.disposable = p.tempDir != "" || opts.Disposable
	// A stale DevToolsActivePort from an earlier run would point at a dead port.
	portFile := filepath.Join(dir, "DevToolsActivePort")
	_ = os.Remove(portFile)

	p.cmd = exec.Command(exe, launchArgs(opts, dir, network)...)
	p.cmd.Stderr = p.stderr
	// The browser's helpers (its crash handler) may hold stderr open after
	// it exited; its exit must be known at once all the same.
	p.cmd.WaitDelay = 100 * time.Millisecond
	// In a process group of its own, told to exit should cdpmcp die, and
	// marked so that the next cdpmcp ends it if it did not.
	p.cmd.Env = browserEnv()
	if err := children.Start(p.cmd, syscall.SIGTERM, func(error) { close(p.exited) }); err != nil {
		p.removeTemp()
		return nil, &LaunchError{Err: fmt.Errorf("start %s: %w", exe, err),
			Hint: "--browser-path must name a Chromium or Chrome executable this user may run"}
	}
	slog.Debug("browser started", "pid", p.cmd.Process.Pid, "exe", exe, "profile", dir)
	if p.tempDir != "" {
		_ = children.Claim(dir, p.cmd.Process.Pid) // its group, for the next cdpmcp to end if we cannot
	}

	ws, err := p.waitForEndpoint(ctx, portFile)
	if err != nil {
		p.close()
		return nil, err
	}
	p.wsURL = ws
	return p, nil
}

// waitForEndpoint polls DevToolsActivePort until Chromium writes it (a deadline of
// 30 s or ctx, whichever comes first) or the process exits.
func (p *process) waitForEndpoint(ctx context.Context, portFile string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(portFile); err == nil {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) == 2 {
				return "ws://127.0.0.1:" + strings.TrimSpace(lines[0]) + strings.TrimSpace(lines[1]), nil
			}
		}
		select {
		case <-p.exited:
			return "", p.startFailed(fmt.Errorf("%s exited during start-up (%s)", filepath.Base(p.cmd.Path), p.cmd.ProcessState),
				"its last lines say why: fix the flag they point at (--browser-path, --browser-arg, --user-data-dir) and call again; cdpmcp tries to start it on every call")
		case <-ctx.Done():
			return "", p.startFailed(fmt.Errorf("the browser did not report its DevTools port: %w", ctx.Err()),
				"its last lines may say why; a machine under heavy load can take longer: call again")
		case <-tick.C:
		}
	}
}

// close ends the whole process group (SIGTERM, then SIGKILL after 3 s; a
// disposable browser SIGKILL at once), waits for the main process and removes
// a temporary profile. It is safe to call more than once.
func (p *process) close() {
	p.closeOnce.Do(func() {
		pgid := p.cmd.Process.Pid
		if p.disposable {
			procgroup.Kill(pgid) // nothing of its profile is kept: no need to let it save
		} else {
			procgroup.Terminate(pgid)
		}
		select {
		case <-p.exited:
		case <-time.After(3 * time.Second):
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

func (p *process) removeTemp() {
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

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(b), nil
}

// lastLines returns the last n non-empty lines, joined by " | ", or
// "(none)".
func (t *tailBuffer) lastLines(n int) string {
	var lines []string
	for _, l := range strings.Split(t.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "(none)"
	}
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(t.buf.String())
}
