package browserproc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/children"
)

// Options say how to start a browser.
type Options struct {
	// Path is the browser executable. Empty means, for a headless browser on a
	// throwaway profile, Chromium's headless shell if there is one
	// (FindHeadlessShell); else the first FindBrowser finds: chromium,
	// chromium-browser, google-chrome or google-chrome-stable on PATH, then
	// where Chrome, Chromium and Edge install on macOS and Windows.
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
	// DisableWebMCP leaves Chromium's WebMCP feature (WebMCPFeature) off:
	// pages then have no document.modelContext to register tools with.
	DisableWebMCP bool
	// Proxy, if set, is where the browser sends its connections
	// (--proxy-server, --proxy-bypass-list); its credentials are answered
	// over DevTools, never put on the command line.
	Proxy *Proxy
	// StartTimeout bounds the wait for a started browser to report its
	// DevTools port while it runs (default DefaultStartTimeout); one that
	// exits is known at once.
	StartTimeout time.Duration
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
	// RenderDocument commits a same-site navigation into a new frame in the
	// same renderer: a dialog the page being left opens as it begins then
	// holds both, and Chrome takes no answer, stop or crash for the tab
	// again (cdpclient/dialogleave.go, wedged).
	"--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,RenderDocument",
	"--password-store=basic",
	"--use-mock-keychain",
	// Tabs in the background must keep running: the model acts on any of them.
	"--disable-background-timer-throttling",
	"--disable-backgrounding-occluded-windows",
	"--disable-renderer-backgrounding",
}

// RequiredFlags are the flags every browser Launch starts gets, before the
// user's: off the network, quiet, and its tabs in the background running.
func RequiredFlags() []string { return slices.Clone(requiredFlags) }

// launchArgs are the browser's flags: ours, then the user's (Chromium takes the
// last of a repeated flag), then cdpmcp's network flags last, so that none of
// the user's can undo them.
func launchArgs(opts Options, userDataDir string, network []string) []string {
	args := []string{"--remote-debugging-port=0", "--user-data-dir=" + userDataDir}
	args = append(args, requiredFlags...)
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	if opts.Headless || headlessNeeded() {
		args = append(args, "--headless", "--hide-scrollbars", "--mute-audio")
	}
	user := opts.Args
	if !opts.DisableWebMCP {
		user = withFeature(user, WebMCPFeature)
	}
	args = append(args, user...)
	args = append(args, opts.Proxy.flags()...)
	args = append(args, network...)
	return append(args, "about:blank")
}

// Launch starts the browser and waits until its DevTools endpoint is known.
// network are flags that must win over the user's (the egress proxy). Its
// failures are *LaunchError.
func Launch(ctx context.Context, opts Options, network []string) (*Process, error) {
	p, err := start(ctx, opts, network)
	var le *LaunchError
	if err != nil && ctx.Err() == nil && !errors.As(err, &le) {
		return nil, &LaunchError{Err: err, Hint: launchHint}
	}
	return p, err
}

func start(ctx context.Context, opts Options, network []string) (*Process, error) {
	exe, err := executable(opts)
	if err != nil {
		return nil, err
	}
	p := &Process{exited: make(chan struct{}), stderr: &tailBuffer{max: 4096}}
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
	p.headless = opts.Headless || headlessNeeded()
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
		// Not a file this user may run: permanent; out of processes (EAGAIN):
		// the next try may start it.
		return nil, &LaunchError{Err: fmt.Errorf("start %s: %w", exe, err),
			Hint:      "--browser-path must name a Chromium or Chrome executable this user may run",
			Permanent: errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOEXEC)}
	}
	slog.Debug("browser started", "pid", p.cmd.Process.Pid, "exe", exe, "profile", dir)
	if p.tempDir != "" {
		_ = children.Claim(dir, p.cmd.Process.Pid) // its group, for the next cdpmcp to end if we cannot
	}

	ws, err := p.waitForEndpoint(ctx, portFile, opts.StartTimeout)
	if err != nil {
		p.Close()
		return nil, err
	}
	p.wsURL = ws
	return p, nil
}
