package cdpclient

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/mafredri/cdp/protocol/target"
)

// Targets coming and going at browser level: tabs attach as pages, other
// targets are guarded or released.

// onEvent runs on the read goroutine for browser-level events.
func (b *Browser) onEvent(method string, params json.RawMessage) {
	for _, h := range b.hooks {
		if h.BrowserEvent != nil {
			h.BrowserEvent(b, method, params)
		}
	}
	switch method {
	case "Target.attachedToTarget":
		var ev target.AttachedToTargetReply
		if err := json.Unmarshal(params, &ev); err != nil {
			return
		}
		b.attach(&ev)
	case "Target.detachedFromTarget":
		var ev target.DetachedFromTargetReply
		if err := json.Unmarshal(params, &ev); err != nil {
			return
		}
		b.detach(string(ev.SessionID))
	case "Target.targetInfoChanged":
		var ev target.InfoChangedReply
		if err := json.Unmarshal(params, &ev); err != nil {
			return
		}
		b.mu.Lock()
		p := b.pages[ev.TargetInfo.TargetID]
		b.mu.Unlock()
		if p != nil {
			p.hist.SetInfo(ev.TargetInfo)
		}
	}
}

func (b *Browser) attach(ev *target.AttachedToTargetReply) {
	info := ev.TargetInfo
	if info.Type != "page" || info.Subtype != nil {
		// Not a tab (a worker, a prerender): guard its requests if a policy is
		// set (or answer its proxy's challenges), else let it run and leave it
		// alone.
		if b.guard.Always() {
			b.attachWorker(ev)
			return
		}
		go b.releaseForeign(string(ev.SessionID), ev.WaitingForDebugger)
		return
	}
	b.markOwnPopup(info)
	b.mu.Lock()
	bc := b.contextFor(info)
	// The new tab is in front from now on, not once it is set up: an action
	// on another tab meanwhile brings that one back (toFront).
	b.front = nil
	b.opened++
	opened := b.opened
	b.mu.Unlock()
	p := newPage(bc, info)
	s, err := b.open(string(ev.SessionID), p.onEvent)
	if err != nil {
		slog.Warn("attach page", "target", info.TargetID, "err", err)
		return
	}
	p.setSession(s)
	b.mu.Lock()
	b.pages[info.TargetID] = p
	b.mu.Unlock()
	// A tab the browser had before cdpmcp attached may be held by a dialog
	// (heldtab.go): its set-up waits as long as the tab is there.
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	if b.starting.Load() && b.proc == nil {
		ctx, cancel = context.WithCancel(context.Background())
	}
	p.stopInit = cancel
	go p.init(ctx, ev.WaitingForDebugger, func(err error) {
		defer p.unheld(err)
		if err == nil {
			bc.add(p)
			b.mu.Lock()
			if b.front == nil && b.opened == opened {
				b.front = p // no tab opened or came to the front since
			}
			b.mu.Unlock()
		}
		b.mu.Lock()
		if err != nil {
			delete(b.pages, info.TargetID)
		}
		w := b.waiters[info.TargetID]
		delete(b.waiters, info.TargetID)
		b.mu.Unlock()
		if w != nil {
			w <- p
		}
	})
}

func (b *Browser) detach(sessionID string) {
	b.mu.Lock()
	var gone *Page
	for id, p := range b.pages {
		if p.s.id == sessionID {
			gone = p
			delete(b.pages, id)
			break
		}
	}
	b.mu.Unlock()
	b.m.Drop(sessionID)
	if gone != nil {
		// Out of its context's list before it is marked closed: Close returns
		// once it is, and its caller may list the tabs next.
		gone.bc.remove(gone)
		gone.markClosed()
	}
}
