package browserproc

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultStartTimeout bounds the wait for a started browser to report its
// DevTools port while it runs. A browser that exits is known at once,
// whatever the bound; one that runs but is slow, on a machine busy with
// other work, gets this long: at a load of 35-58 on two cores, 30 s was seen
// to be too little for Chromium's first start.
const DefaultStartTimeout = 90 * time.Second

// slowStart is how long a start may take before it is logged as slow; from
// then on, the disk under its profile is checked every second, since a
// browser that cannot write its profile hangs rather than exits.
const slowStart = 10 * time.Second

// waitForEndpoint polls DevToolsActivePort until Chromium writes it, the
// process exits, the disk under its profile is full, or bound (or ctx) ends.
func (p *Process) waitForEndpoint(ctx context.Context, portFile string, bound time.Duration) (string, error) {
	if bound <= 0 {
		bound = DefaultStartTimeout
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var logged bool
	var diskChecked time.Time
	for {
		if b, err := os.ReadFile(portFile); err == nil {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) == 2 {
				if logged {
					slog.Info("the browser reported its DevTools port at last", "pid", p.PID(), "after", time.Since(start).Round(time.Millisecond))
				}
				return "ws://127.0.0.1:" + strings.TrimSpace(lines[0]) + strings.TrimSpace(lines[1]), nil
			}
		}
		if waited := time.Since(start); waited >= slowStart {
			if !logged {
				logged = true
				slog.Warn("the browser is slow to start: waiting while it runs", "pid", p.PID(), "waited", waited.Round(time.Second), "bound", bound)
			}
			if time.Since(diskChecked) >= time.Second {
				diskChecked = time.Now()
				if p.profile != "" && noSpace(p.profile) {
					return "", p.startFailed(fmt.Errorf("the browser did not report its DevTools port in %s", waited.Round(time.Second)),
						"free space on the disk holding its profile, then call again")
				}
			}
		}
		select {
		case <-p.exited:
			return "", p.startFailed(fmt.Errorf("%s exited during start-up (%s)", filepath.Base(p.cmd.Path), p.cmd.ProcessState),
				"its last lines say why: fix the flag they point at (--browser-path, --browser-arg, --user-data-dir) and call again; cdpmcp tries to start it on every call")
		case <-ctx.Done():
			return "", p.startFailed(fmt.Errorf("the browser ran for %s without reporting its DevTools port: %w", time.Since(start).Round(time.Second), ctx.Err()),
				"its last lines may say why; if the machine is busy with other work, call again: cdpmcp tries to start it on every call")
		case <-tick.C:
		}
	}
}
