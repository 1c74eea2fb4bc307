package leaving

import (
	"context"
	"log/slog"
	"time"
)

// callTimeout bounds each step of stopping a renderer, as the core bounds
// one protocol call (cdpclient's cdpCallTimeout).
const callTimeout = 10 * time.Second

// stopRenderer ends the renderer of a page held by dialogs without end
// (Page.crash: the page's own process, which takes no other command), and
// waits for it to be gone. The tab stays, with its history: a navigation
// gives it a new renderer.
func stopRenderer(ctx context.Context, t Tab) {
	t.SetStopping()
	// A navigation in flight holds back every command for the renderer until
	// it commits, which the renderer, held by its dialogs, never lets it do:
	// the browser cancels it first (it runs no page code to do so).
	stopCtx, cancelStop := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
	_ = t.StopLoading(stopCtx)
	cancelStop()
	crashCtx, cancelCrash := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
	go func() {
		defer cancelCrash()
		crashRenderer(crashCtx, t)
	}()
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	for {
		ch := t.Changed()
		if !t.IsStopping() {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			slog.Warn("the renderer of a page that opens dialogs without end did not stop", "page", t.Name())
			return
		}
	}
}

// crashRenderer sends Page.crash, which the renderer's end answers. While a
// navigation commits, the page's session has no page to crash for a moment
// ("Not attached to an active page"): it asks again until it has, or the
// renderer is gone.
func crashRenderer(ctx context.Context, t Tab) {
	for {
		err := t.Crash(ctx)
		if !betweenDocuments(err) {
			return
		}
		slog.Debug("the page to stop is between documents: asking again", "page", t.Name())
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
		if !t.IsStopping() {
			return
		}
	}
}
