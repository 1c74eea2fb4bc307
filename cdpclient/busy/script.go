package busy

import (
	"context"
	"log/slog"
	"time"
)

// StopStuck ends the script a stuck page is running, before a navigation
// (reload, another URL) or closing: as a person's browser would offer to.
func (w *Watch) StopStuck() {
	if !w.Busy() || w.responsive(busyProbe) {
		w.Clear()
		return
	}
	w.terminate()
}

// terminate stops the script running in the page's main world.
func (w *Watch) terminate() {
	ctx, cancel := context.WithTimeout(context.Background(), terminateTimeout)
	defer cancel()
	if err := w.page.Terminate(ctx); err != nil {
		slog.Warn("could not stop a stuck script", "page", w.page.Name(), "err", err)
		return
	}
	w.Clear()
	slog.Info("stopped a script that kept the page busy", "page", w.page.Name())
}

// scriptStopMargin is how long before a call's deadline a caller's script that
// still runs is stopped, so that the call answers in time and says so; at most
// a quarter of the time left.
const scriptStopMargin = 1500 * time.Millisecond

// ScriptDeadline derives the context a caller's script runs under: ctx's
// deadline less scriptStopMargin.
func ScriptDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, d.Add(-min(scriptStopMargin, time.Until(d)/4)))
}

// StopScript ends a caller's script that ran out of time (it began at
// since): when the page does not answer, its main thread is still in the
// script, which is terminated. It returns the *ScriptTimeout that says so,
// or a *Navigating when the page does not answer because its tab waits for
// a navigation's server (nothing is stopped then).
func (w *Watch) StopScript(since time.Time) error {
	e := &ScriptTimeout{After: time.Since(since)}
	if !w.responsive(busyProbe) {
		if nav := w.navigating(); nav != nil {
			return nav // the browser holds the script's call: nothing runs
		}
		w.terminate()
		e.Stopped = true
	}
	return e
}
