package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
	"github.com/mafredri/cdp/protocol/target"
)

// titleWait bounds reading the title from the page: a page stuck in a script
// does not answer, and the browser, asked next, knows the title without it.
const titleWait = time.Second

// DocumentTitle reads document.title from the page (without running page code).
// When the page cannot answer in time (stuck in a script, or slow on a loaded
// machine) it asks the browser, which knows the tab's title without the page.
func (p *Page) DocumentTitle(ctx context.Context) string {
	if t, ok := p.pageTitle(ctx); ok {
		return t
	}
	return p.Title(ctx)
}

// pageTitle reads document.title from the page; false when the page could
// not answer (stuck, gone, slow).
func (p *Page) pageTitle(ctx context.Context) (string, bool) {
	if p.usable() != nil || p.busy.Busy() {
		return "", false
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	evalCtx, cancelWait := context.WithTimeout(ctx, titleWait)
	defer cancelWait()
	// Read in cdpmcp's world: a getter the page defines on document runs
	// only in the page's own world.
	var t string
	v, err := p.evalPlain(evalCtx, frameKey{Frame: p.hist.Main()}, "document.title")
	if err == nil {
		err = json.Unmarshal(v, &t)
	}
	if err != nil {
		slog.Debug("title read from the browser", "page", p.ID, "why", err)
		return "", false
	}
	return t, true
}

// Title is the tab's title as the browser shows it, without asking the page:
// document.title once the page set one, else its address. (The title in
// targetInfoChanged is not it: Chromium sends that event when a navigation
// commits, not when the title changes.) The browser answers without the
// renderer, but a loaded machine can take seconds: it is given as long as any
// CDP call, so that a slow answer is not taken for none (the fallback, the
// title at the last commit, is often the address).
func (p *Page) Title(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, cdpCallTimeout)
	defer cancel()
	r, err := p.bc.b.client.Target.GetTargetInfo(ctx, target.NewGetTargetInfoArgs().SetTargetID(p.targetID))
	if err != nil {
		return p.hist.Title()
	}
	return r.TargetInfo.Title
}

// closeResend is how long Close waits for the tab to go before it asks again:
// the headless shell drops, silently, a Target.closeTarget that comes right
// after a navigation was sent.
const closeResend = 500 * time.Millisecond

// Close closes the tab and waits until it is gone. A tab only the Fetch
// guard holds is emptied first (quietBeforeClose).
func (p *Page) Close(ctx context.Context) error {
	p.quietBeforeClose(ctx)
	ch := p.changed.Watch()
	closeTarget := func() error {
		_, err := p.bc.b.client.Target.CloseTarget(ctx, target.NewCloseTargetArgs(p.targetID))
		return err
	}
	if err := closeTarget(); err != nil {
		if p.usable() == ErrPageClosed {
			return nil
		}
		return fmt.Errorf("close page %s: %w", p.ID, err)
	}
	resend := time.NewTicker(closeResend)
	defer resend.Stop()
	for {
		if p.life.Err() == ErrPageClosed {
			return nil
		}
		select {
		case <-ch:
			ch = p.changed.Watch()
		case <-resend.C:
			_ = closeTarget() // a tab already on its way out may refuse: the wait goes on
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Activate makes the page its context's current page and brings its tab to the
// front.
func (p *Page) Activate(ctx context.Context) error {
	if err := p.usable(); err != nil && !errors.Is(err, ErrPageCrashed) {
		var d *DialogOpenError
		if !errors.As(err, &d) {
			return err
		}
	}
	p.bc.SetCurrent(p)
	p.bc.b.notePersonsFront(ctx)
	if err := p.bc.b.client.Target.ActivateTarget(ctx, target.NewActivateTargetArgs(p.targetID)); err != nil {
		return fmt.Errorf("activate %s: %w", p.ID, err)
	}
	return nil
}

// opener returns the open page that opened this one (a popup's opener), or nil.
func (p *Page) opener() *Page {
	id := p.hist.Opener()
	if id == nil {
		return nil
	}
	b := p.bc.b
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pages[*id]
}

// destination is where the page is or is going: its URL, or, while its first
// document is still on the way, the address it asked for.
func (p *Page) destination() string {
	if u := p.URL(); u != "" && u != "about:blank" {
		return u
	}
	for _, e := range p.logs.Network(0) {
		if e.Type == "Document" {
			return e.URL
		}
	}
	return p.URL()
}

// ConsoleEntries returns the page's recent console messages, oldest first.
func (p *Page) ConsoleEntries() []pagelog.ConsoleEntry { return p.logs.Console(0) }

// NetworkEntries returns the page's recent requests, oldest first.
func (p *Page) NetworkEntries() []pagelog.NetworkEntry { return p.logs.Network(0) }

// DocumentEntries returns the requests of the main frame's documents among
// the page's recent requests, oldest first: where each page it showed began.
func (p *Page) DocumentEntries() []pagelog.NetworkEntry {
	var out []pagelog.NetworkEntry
	for _, e := range p.logs.Network(0) {
		if p.mainDocument(e) {
			out = append(out, e)
		}
	}
	return out
}

// TargetID is the browser's id for the page's target.
func (p *Page) TargetID() string { return string(p.targetID) }

// OpenerID is the target id of the page that opened this one (a popup's
// opener), or "".
func (p *Page) OpenerID() string {
	if id := p.hist.Opener(); id != nil {
		return string(*id)
	}
	return ""
}
