package cdpclient

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
)

// A browser cdpmcp attached to is a person's: when cdpmcp lets go of it
// cleanly, it leaves it as it found it. The tabs cdpmcp opened there (newPage,
// and the popups those tabs opened) are closed, the contexts it created are
// disposed, and the tabs that were in front before cdpmcp first brought one
// of its own forward are brought back. The person's own tabs are never
// closed; a popup one of them opened stays even when a cdpmcp click opened
// it (a sign-in window its opener waits for).

// letGoWait bounds the whole let-go: a person's browser that does not answer
// is left as it is rather than holding cdpmcp's exit.
const letGoWait = 5 * time.Second

// ownTabs are the tabs cdpmcp opened in a browser (guarded by Browser.mu).
type ownTabs struct {
	ids map[target.ID]bool
	// front are the person's tabs that were in front before cdpmcp first
	// brought one forward; taken says that moment has come.
	front []target.ID
	taken bool
}

// PersonsTab reports whether the page is in a person's browser context: the
// default context of a browser cdpmcp attached to, where what cdpmcp does
// shows in tabs the person uses.
func (p *Page) PersonsTab() bool { return p.bc.b.proc == nil && p.bc.id == "" }

// markOwn records a tab cdpmcp opened.
func (b *Browser) markOwn(id target.ID) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.own.ids == nil {
		b.own.ids = map[target.ID]bool{}
	}
	b.own.ids[id] = true
}

// MarkOpened records a tab cdpmcp opened other than by NewPage (a raw
// Target.createTarget): it is closed with the others when cdpmcp lets go.
func (b *Browser) MarkOpened(targetID string) { b.markOwn(target.ID(targetID)) }

// markOwnPopup records a tab opened by one cdpmcp opened: it goes with it.
func (b *Browser) markOwnPopup(info target.Info) {
	if info.OpenerID == nil {
		return
	}
	b.mu.Lock()
	own := b.own.ids[*info.OpenerID]
	b.mu.Unlock()
	if own {
		b.markOwn(info.TargetID)
	}
}

// isOwn reports whether cdpmcp opened the tab.
func (b *Browser) isOwn(id target.ID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.own.ids[id]
}

// notePersonsFront remembers, before cdpmcp first brings a tab to the front
// of a browser it attached to, which of the person's tabs are in front (their
// document visible), to bring them back when it lets go. A tab that does not
// answer in time (a dialog open in it) is left out.
func (b *Browser) notePersonsFront(ctx context.Context) {
	if b.proc != nil {
		return
	}
	b.mu.Lock()
	taken := b.own.taken
	b.own.taken = true
	b.mu.Unlock()
	if taken {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var (
		mu    sync.Mutex
		front []target.ID
		wg    sync.WaitGroup
	)
	for _, p := range b.def.Pages() {
		if b.isOwn(p.targetID) || p.usable() != nil {
			continue
		}
		wg.Go(func() {
			v, err := p.evalPlain(ctx, frameKey{Frame: p.hist.Main()}, "document.visibilityState")
			var state string
			if err == nil && json.Unmarshal(v, &state) == nil && state == "visible" {
				mu.Lock()
				front = append(front, p.targetID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b.mu.Lock()
	b.own.front = front
	b.mu.Unlock()
}

// letGo leaves a browser cdpmcp attached to as the person had it (see the
// top of this file). A launched browser, or one already gone, is left alone.
func (b *Browser) letGo() {
	if b.proc != nil || b.client == nil || !b.Alive() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), letGoWait)
	defer cancel()
	b.mu.Lock()
	var mine []*Page
	for id, p := range b.pages {
		if b.own.ids[id] && p.bc == b.def {
			mine = append(mine, p)
		}
	}
	contexts := make([]*BrowserContext, 0, len(b.contexts))
	for _, bc := range b.contexts {
		contexts = append(contexts, bc)
	}
	front := append([]target.ID(nil), b.own.front...)
	b.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range mine {
		wg.Go(func() { p.closeOwn(ctx) })
	}
	for _, bc := range contexts {
		wg.Go(func() {
			if err := bc.Close(ctx); err != nil {
				slog.Debug("dispose a context cdpmcp created", "context", bc.id, "err", err)
			}
		})
	}
	wg.Wait()
	for _, id := range front {
		if err := b.client.Target.ActivateTarget(ctx, target.NewActivateTargetArgs(id)); err != nil {
			slog.Debug("bring the person's tab back to the front", "target", id, "err", err)
		}
	}
	if len(mine) > 0 || len(front) > 0 {
		slog.Info("left the attached browser as found", "closed_tabs", len(mine), "front_again", len(front))
	}
}

// closeOwn closes a tab cdpmcp opened, as it lets go of the browser: a
// dialog in it (its "leave site?" prompt included, which closing it may
// raise) is accepted, since the tab is going; none may be left open, where
// it would hold the tab with no one to answer it.
func (p *Page) closeOwn(ctx context.Context) {
	accept := func() {
		if p.Dialog() != nil {
			_ = p.c.Page.HandleJavaScriptDialog(ctx, page.NewHandleJavaScriptDialogArgs(true))
		}
	}
	accept()
	ch := p.changed.Watch()
	if _, err := p.bc.b.client.Target.CloseTarget(ctx, target.NewCloseTargetArgs(p.targetID)); err != nil {
		slog.Debug("close a tab cdpmcp opened", "page", p.ID, "err", err)
		return
	}
	for p.life.Err() != ErrPageClosed {
		select {
		case <-ch:
			ch = p.changed.Watch()
			accept()
		case <-ctx.Done():
			return
		}
	}
}
