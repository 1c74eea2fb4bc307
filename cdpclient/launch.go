package cdpclient

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
)

// LaunchOptions says how to start a browser (Options.Launch).
type LaunchOptions = browserproc.Options

// process is a browser this process launched (browserproc.Launch), and the
// DevTools endpoint the core connects to.
type process struct {
	*browserproc.Process
	wsURL string
}

// launch starts the browser and waits until its DevTools endpoint is known.
// network are flags that must win over the user's (the egress proxy). Its
// failures are *browserproc.LaunchError.
func launch(ctx context.Context, opts LaunchOptions, network []string) (*process, error) {
	p, err := browserproc.Launch(ctx, opts, network)
	if err != nil {
		return nil, err
	}
	return &process{Process: p, wsURL: p.Endpoint()}, nil
}

// close ends the browser's process group and removes a temporary profile.
func (p *process) close() { p.Close() }

// Headless reports whether the browser is one this process launched without
// a window: its clipboard is then its own, in memory, and no one else's
// (the system's clipboard is what a windowed or attached browser uses).
func (b *Browser) Headless() bool { return b.proc != nil && b.proc.Headless() }

// Shutdown asks a browser this process launched to exit by itself
// (Browser.close) and waits, within ctx, until it has, so it writes its
// profile (cookies, storage) to disk; then it closes as Close does (which
// asks once more, with SIGTERM, before it kills). Close alone ends the
// process group at once, which can lose the last cookies of a persistent
// profile. An attached browser is only disconnected.
//
// It reports whether the browser exited by itself: false when it had to be
// killed, so the last of its profile may not be on disk.
func (b *Browser) Shutdown(ctx context.Context) (exited bool) {
	if b.proc != nil && b.Alive() {
		// The connection may close as the browser exits, before its answer.
		if _, err := b.Raw(ctx, "Browser.close", nil); err == nil || !b.Alive() {
			select {
			case <-b.proc.Exited():
			case <-ctx.Done():
			}
		}
	}
	b.Close()
	return b.proc == nil || !b.proc.Killed()
}

// PID is the process id of a browser this process launched (the leader of its
// process group), or 0 for an attached browser.
func (b *Browser) PID() int {
	if b.proc == nil {
		return 0
	}
	return b.proc.PID()
}
