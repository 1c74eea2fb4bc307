package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/mafredri/cdp/protocol/runtime"
)

const (
	// busyAfter is how long an operation may go without an answer before the
	// page is probed for a script that keeps its main thread busy.
	busyAfter = 2 * time.Second
	// probeTimeout is how long a page may take to answer "are you there?"
	// before it is taken to be stuck in a script. A loaded machine can take
	// hundreds of milliseconds to answer: this errs on the side of patience.
	probeTimeout = time.Second
	// busyProbe is the shorter probe of a page already known to be stuck.
	busyProbe = 300 * time.Millisecond
)

// progressBinding is the binding through which a sliced page-model walk
// (js/snapshot.js) reports, at the end of each slice, that it is what keeps
// the page's main thread: on a loaded machine a slice can outlast a probe.
// Only cdpmcp's isolated world has it.
const progressBinding = "__cdpmcpProgress"

// busyHint is what to do about a page stuck in a script.
const busyHint = "a script of the page is still running; reload (or closePage) stops it, or wait and take a snapshot"

// BusyError says a script of the page keeps its main thread busy, so the page
// answers nothing.
type BusyError struct {
	Since time.Time
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("the page is busy: a script has kept it from answering for %.0f s", time.Since(e.Since).Seconds())
}

// onProgress notes a progress report of the page model's walk; false when the
// binding call is not one.
func (p *Page) onProgress(params json.RawMessage) bool {
	var ev struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.Name != progressBinding {
		return false
	}
	p.progress.Store(time.Now().UnixNano())
	return true
}

// progressed reports whether the page model's walk reported progress since
// start, the last time within d.
func (p *Page) progressed(start time.Time, d time.Duration) bool {
	last := time.Unix(0, p.progress.Load())
	return last.After(start) && time.Since(last) < d
}

// responsive reports whether the page's main thread answers a trivial
// evaluation within d.
func (p *Page) responsive(d time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, err := p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("1").SetSilent(true))
	return err == nil
}

// slowBrowser is how long the browser itself may take to answer a call that
// needs no renderer before the machine is taken to be too busy to judge a
// page by how fast it answers.
const slowBrowser = 250 * time.Millisecond

// machineSlow reports whether the browser process is slow to answer a call
// of its own (its version): the machine is loaded, and a page slow to answer
// is not thereby stuck.
func (p *Page) machineSlow() bool {
	b := p.bc.b
	if b == nil || b.client == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	start := time.Now()
	_, err := b.client.Browser.GetVersion(ctx)
	return err != nil || time.Since(start) > slowBrowser
}

// watchdog derives a context that is cancelled, with a *BusyError as its cause,
// when an operation under it has run busyAfter and the page then does not answer
// a probe: a script keeps it busy. The page is marked busy so later calls answer
// at once. stop ends the watch.
func (p *Page) watchdog(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	start := time.Now()
	go func() {
		for {
			t := time.NewTimer(nextProbe(ctx))
			select {
			case <-done:
				t.Stop()
				return
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			if p.Dialog() != nil || p.responsive(probeTimeout) || p.progressed(start, busyAfter+probeTimeout) {
				continue // a dialog blocks the page, not a script; or the page model's walk does
			}
			// A page that misses one probe may only be on a slow machine:
			// the browser, which needs no renderer to answer, is slow too
			// then. A stuck page is one whose browser answers at once and
			// that then misses a second, longer probe as well.
			if p.machineSlow() || p.responsive(secondProbe(ctx)) || p.Dialog() != nil || p.progressed(start, busyAfter+3*probeTimeout) {
				continue
			}
			cancel(p.markBusy(start))
			return
		}
	}()
	return ctx, func() { close(done); cancel(nil) }
}

// nextProbe is when the watchdog probes next: after busyAfter, or sooner when
// ctx's deadline is near, so that running out of time on a stuck page says why.
func nextProbe(ctx context.Context) time.Duration {
	next := busyAfter
	if d, ok := ctx.Deadline(); ok {
		next = min(next, max(time.Until(d)-2*probeTimeout, probeTimeout/2))
	}
	return next
}

// secondProbe is the patience of the second probe: twice the first's, less
// when ctx's deadline is nearer, so that the call can still say why it failed.
func secondProbe(ctx context.Context) time.Duration {
	d := 2 * probeTimeout
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, max(time.Until(dl)-probeTimeout/4, time.Millisecond))
	}
	return d
}

func (p *Page) markBusy(since time.Time) *BusyError {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.busySince.IsZero() {
		p.busySince = since
		slog.Info("page stuck in a script", "page", p.ID)
	}
	return &BusyError{Since: p.busySince}
}

// busy reports whether the page is known to be stuck in a script.
func (p *Page) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.busySince.IsZero()
}

// checkBusy answers at once for a page known to be stuck: a *BusyError if it
// still does not answer, nil (and the page no longer marked) if it does.
func (p *Page) checkBusy(ctx context.Context) error {
	p.mu.Lock()
	since := p.busySince
	p.mu.Unlock()
	if since.IsZero() {
		return nil
	}
	if p.Dialog() != nil || p.responsive(busyProbe) { // a dialog holds it, not a script
		p.clearBusy()
		return nil
	}
	return &BusyError{Since: since}
}

func (p *Page) clearBusy() {
	p.mu.Lock()
	p.busySince = time.Time{}
	p.mu.Unlock()
}

// stopStuckScript ends the script a stuck page is running, before a navigation
// (reload, another URL) or closing: as a person's browser would offer to.
func (p *Page) stopStuckScript() {
	if !p.busy() || p.responsive(busyProbe) {
		p.clearBusy()
		return
	}
	p.terminate()
}

// terminate stops the script running in the page's main world.
func (p *Page) terminate() {
	ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
	defer cancel()
	if err := p.c.Runtime.TerminateExecution(ctx); err != nil {
		slog.Warn("could not stop a stuck script", "page", p.ID, "err", err)
		return
	}
	p.clearBusy()
	slog.Info("stopped a script that kept the page busy", "page", p.ID)
}

// scriptStopMargin is how long before a call's deadline a caller's script that
// still runs is stopped, so that the call answers in time and says so; at most
// a quarter of the time left.
const scriptStopMargin = 1500 * time.Millisecond

// ScriptTimeout says a caller's script (evaluate) did not finish in the call's
// time; Stopped says it was still running and was ended, rather than waiting
// for a promise that never settled.
type ScriptTimeout struct {
	After   time.Duration
	Stopped bool
}

func (e *ScriptTimeout) Error() string {
	if e.Stopped {
		return fmt.Sprintf("the page was still busy after %.1f s (the expression, or the page's own script or layout): the running script was stopped", e.After.Seconds())
	}
	return fmt.Sprintf("the expression's promise did not settle within %.1f s", e.After.Seconds())
}

// scriptDeadline derives the context a caller's script runs under: ctx's
// deadline less scriptStopMargin.
func scriptDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, d.Add(-min(scriptStopMargin, time.Until(d)/4)))
}

// stopScript ends a caller's script that ran out of time: when the page does
// not answer, its main thread is still in the script, which is terminated.
func (p *Page) stopScript(since time.Time) error {
	e := &ScriptTimeout{After: time.Since(since)}
	if !p.responsive(busyProbe) {
		p.terminate()
		e.Stopped = true
	}
	return e
}
