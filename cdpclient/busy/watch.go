package busy

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
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
	// slowBrowser is how long the browser itself may take to answer a call
	// that needs no renderer before the machine is taken to be too busy to
	// judge a page by how fast it answers.
	slowBrowser = 250 * time.Millisecond
	// terminateTimeout bounds the call that stops a stuck script.
	terminateTimeout = 10 * time.Second
)

// ProgressBinding is the binding through which a sliced page-model walk
// reports, at the end of each slice, that it is what keeps the page's main
// thread: on a loaded machine a slice can outlast a probe. Only cdpmcp's
// isolated world has it (the core adds it there).
const ProgressBinding = "__cdpmcpProgress"

// Page is what the watchdog asks of the page it watches: the core's calls to
// the browser.
type Page interface {
	// Answer evaluates a trivial expression in the page's main world: it
	// returns nil once the main thread answered, or ctx's error.
	Answer(ctx context.Context) error
	// BrowserAnswer asks the browser process a question of its own (its
	// version), which needs no renderer.
	BrowserAnswer(ctx context.Context) error
	// DialogOpen reports whether a JavaScript dialog holds the page: a
	// dialog blocks it, not a script.
	DialogOpen() bool
	// Navigating reports a navigation of the page under way whose server
	// has not answered yet: where to, and since when. Until it commits or
	// ends, the browser holds every call to the page's renderer, so the
	// page answers nothing though no script keeps it.
	Navigating() (url string, since time.Time, ok bool)
	// Terminate stops the script running in the page's main world.
	Terminate(ctx context.Context) error
	// Name names the page in logs.
	Name() string
}

// Watch is one page's watchdog: whether the page is known to be stuck, since
// when, and when its page-model walk last reported progress.
type Watch struct {
	page     Page
	mu       sync.Mutex
	since    time.Time    // when a script began to keep the page from answering; zero if not
	progress atomic.Int64 // when a sliced page-model walk last reported progress (unix ns)
}

// New returns the watchdog of p, not busy.
func New(p Page) *Watch { return &Watch{page: p} }

// OnBinding notes a progress report of the page model's walk, from the
// params of a Runtime.bindingCalled event; false when the call is not one.
func (w *Watch) OnBinding(params json.RawMessage) bool {
	var ev struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.Name != ProgressBinding {
		return false
	}
	w.progress.Store(time.Now().UnixNano())
	return true
}

// progressed reports whether the page model's walk reported progress since
// start, the last time within d.
func (w *Watch) progressed(start time.Time, d time.Duration) bool {
	last := time.Unix(0, w.progress.Load())
	return last.After(start) && time.Since(last) < d
}

// responsive reports whether the page's main thread answers a trivial
// evaluation within d.
func (w *Watch) responsive(d time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return w.page.Answer(ctx) == nil
}

// machineSlow reports whether the browser process is slow to answer a call
// of its own: the machine is loaded, and a page slow to answer is not
// thereby stuck.
func (w *Watch) machineSlow() bool {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	start := time.Now()
	err := w.page.BrowserAnswer(ctx)
	return err != nil || time.Since(start) > slowBrowser
}

// Guard derives a context that is cancelled, with an *Error as its cause,
// when an operation under it has run busyAfter and the page then does not
// answer a probe: a script keeps it busy. The page is marked busy so later
// calls answer at once (Check). A page that does not answer because its
// tab waits for a navigation's server (Page.Navigating) is not stuck: the
// context is cancelled with a *Navigating as its cause, and the page is not
// marked. stop ends the watch.
func (w *Watch) Guard(ctx context.Context) (_ context.Context, stop func()) {
	return w.guard(ctx, true)
}

// GuardNavigation is Guard for a caller's own script (evaluate), which keeps
// the page from answering probes as a stuck one does: it cancels the context
// only for a tab waiting for a navigation's server (a *Navigating), probing
// only then.
func (w *Watch) GuardNavigation(ctx context.Context) (_ context.Context, stop func()) {
	return w.guard(ctx, false)
}

// guard is Guard, or with scripts false GuardNavigation.
func (w *Watch) guard(ctx context.Context, scripts bool) (_ context.Context, stop func()) {
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
			if !scripts && w.navigating() == nil {
				continue
			}
			if w.page.DialogOpen() || w.responsive(probeTimeout) || w.progressed(start, busyAfter+probeTimeout) {
				continue // a dialog blocks the page, not a script; or the page model's walk does
			}
			if nav := w.navigating(); nav != nil {
				cancel(nav) // the browser holds the probe, not a script
				return
			}
			if !scripts {
				continue // the caller's own script keeps the page
			}
			// A page that misses one probe may only be on a slow machine:
			// the browser, which needs no renderer to answer, is slow too
			// then. A stuck page is one whose browser answers at once and
			// that then misses a second, longer probe as well.
			if w.machineSlow() || w.responsive(secondProbe(ctx)) || w.page.DialogOpen() || w.progressed(start, busyAfter+3*probeTimeout) {
				continue
			}
			if nav := w.navigating(); nav != nil {
				cancel(nav) // one that began meanwhile holds the probes
				return
			}
			cancel(w.mark(start))
			return
		}
	}()
	return ctx, func() { close(done); cancel(nil) }
}

// navigating is the *Navigating error of a tab waiting for a navigation's
// server, or nil.
func (w *Watch) navigating() *Navigating {
	url, since, ok := w.page.Navigating()
	if !ok {
		return nil
	}
	return &Navigating{URL: url, Since: since}
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

func (w *Watch) mark(since time.Time) *Error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.since.IsZero() {
		w.since = since
		slog.Info("page stuck in a script", "page", w.page.Name())
	}
	return &Error{Since: w.since}
}

// Busy reports whether the page is known to be stuck in a script.
func (w *Watch) Busy() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.since.IsZero()
}

// Check answers at once for a page known to be stuck: an *Error if it still
// does not answer, nil (and the page no longer marked) if it does.
func (w *Watch) Check() error {
	w.mu.Lock()
	since := w.since
	w.mu.Unlock()
	if since.IsZero() {
		return nil
	}
	if w.page.DialogOpen() || w.responsive(busyProbe) { // a dialog holds it, not a script
		w.Clear()
		return nil
	}
	return &Error{Since: since}
}

// CheckNavigation answers at once for a tab that has waited busyAfter or
// more for a navigation's server and does not answer: a *Navigating. A
// navigation that began less than busyAfter ago is left to the call's
// Guard, within which a quick server answers.
func (w *Watch) CheckNavigation() error {
	nav := w.navigating()
	if nav == nil || time.Since(nav.Since) < busyAfter || w.responsive(busyProbe) {
		return nil
	}
	return nav
}

// Clear marks the page as not stuck (it answers, or is loaded anew in a new
// renderer).
func (w *Watch) Clear() {
	w.mu.Lock()
	w.since = time.Time{}
	w.mu.Unlock()
}
