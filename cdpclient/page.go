package cdpclient

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/actionlock"
	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/cdpmcp/cdpmcp/cdpclient/featureslots"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsdialog"
	"github.com/cdpmcp/cdpmcp/cdpclient/navstate"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
	"github.com/cdpmcp/cdpmcp/cdpclient/reftable"
	"github.com/cdpmcp/cdpmcp/cdpclient/tablife"
	"github.com/cdpmcp/cdpmcp/cdpclient/wakeup"
	"github.com/cdpmcp/cdpmcp/cdpclient/worldmap"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
)

// cdpCallTimeout bounds CDP calls made outside any tool call (clean-up).
const cdpCallTimeout = 10 * time.Second

// navMark is the page's navigation state before an action
// (cdpclient/navstate), to tell what the action started.
type navMark = navstate.Mark

// setupTimeout bounds the set-up of a new tab or frame (its domains, scripts
// and worlds). A loaded machine can take more than cdpCallTimeout for it; the
// call that waits for the tab is still bounded by its own deadline.
const setupTimeout = 30 * time.Second

// Page is one tab. Its methods may be called concurrently; actions on one page
// are serialised, actions on different pages run in parallel.
type Page struct {
	// ID is the short id clients use (p1, p2, …), unique within its context.
	ID       string
	seq      int
	answered atomic.Int64 // the context's page count at the last action's answer (observe.go)
	// answeredURL is the tab's URL at the last action's answer (nil before
	// the first): where it is at the next action's start, if not there,
	// it went on its own (feedback.Before's URL).
	answeredURL atomic.Pointer[string]
	// pendingCalls are the ids of the calls the last answer said were
	// pending: the next answer says how they ended (observebefore.go).
	pendingCalls atomic.Pointer[[]string]

	bc       *BrowserContext
	targetID target.ID
	s        *session
	c        *cdp.Client

	actLock actionlock.Lock[*frameSession] // one action at a time, and its remote objects (cdpclient/actionlock)
	busy    *busy.Watch                    // whether a script keeps the page stuck (cdpclient/busy)

	changed *wakeup.Signal  // notified on every change of the page's state
	hist    *navstate.State // where the main frame is and has been (cdpclient/navstate)
	dialogs *dialogState    // the dialog that blocks it (cdpclient/jsdialog)
	life    tablife.Life    // closed or crashed (cdpclient/tablife)
	worlds  *worldmap.Map   // cdpmcp's isolated worlds in its frames (cdpclient/worldmap)

	logs      *pagelog.Log   // console messages and requests (cdpclient/pagelog)
	refs      *refTable      // the frame each ref was handed out in (cdpclient/reftable)
	paused    atomic.Int32   // requests waiting for the guard's answer
	listeners []PageListener // features' listeners to its events (doornet.go)

	children children           // out-of-process frames and workers (frames.go)
	slots    featureslots.Slots // features' state on the page (Door.Slot, doorhooks.go)

	ready   chan struct{}
	initErr error
	// stopInit ends the set-up's calls (the tab went); held says the tab
	// was listed before its set-up finished (heldtab.go).
	stopInit     context.CancelFunc
	held         atomic.Bool
	announceOnce sync.Once
}

func newPage(bc *BrowserContext, info target.Info) *Page {
	changed := wakeup.New()
	p := &Page{
		bc:       bc,
		targetID: info.TargetID,
		changed:  changed,
		hist:     navstate.New(info, changed.Notify),
		dialogs:  jsdialog.New[watchSet](changed.Notify),
		ready:    make(chan struct{}),
		logs:     pagelog.New(),
		refs:     reftable.New[frameKey](),
		worlds:   worldmap.New(worldName),
	}
	p.listeners = newListeners(p)
	p.busy = busy.New(busyProbe{p})
	return p
}

func (p *Page) setSession(s *session) {
	p.s = s
	p.c = cdp.NewClient(s.conn)
}

// documentSetup is what a session hosting documents (the page's, or an out-of-
// process frame's) needs: its domains, children attached, the page model and
// the origin guard.
func (p *Page) documentSetup(ctx context.Context, s *session, c *cdp.Client) []func() error {
	return append([]func() error{
		func() error { return c.Page.Enable(ctx) },
		func() error { return c.Runtime.Enable(ctx) },
		func() error { return c.Network.Enable(ctx, network.NewEnableArgs()) },
		func() error { return c.Log.Enable(ctx) },
		func() error { return autoAttachChildren(ctx, c) },
		func() error { return installPageModel(ctx, c) },
		func() error { return p.bc.b.guard.SetUp(ctx, c) },
	}, append(p.bc.sessionSetup(ctx, s, c), p.bc.interceptSetup(ctx, c)...)...)
}

// init enables the domains the page model needs, resumes a paused target and then
// calls done with the outcome. A page that failed set-up is never announced
// (unless listed held before: heldtab.go). ctx bounds the set-up, and
// p.stopInit ends it.
func (p *Page) init(ctx context.Context, waiting bool, done func(error)) {
	defer p.stopInit()
	calls := append(p.documentSetup(ctx, p.s, p.c), func() error {
		return p.c.Page.SetLifecycleEventsEnabled(ctx, page.NewSetLifecycleEventsEnabledArgs(true))
	})
	// Named and shown to the context's watchers (a recording) before a popup
	// is resumed: they see its first request. (Sent in order, not waited for:
	// a paused target answers some set-up calls only once it runs.)
	calls = append(calls, func() error { p.announce(); return nil })
	if waiting {
		calls = append(calls, func() error { return p.c.Runtime.RunIfWaitingForDebugger(ctx) })
	}
	err := p.s.wire.InOrder(calls...)
	if err == nil {
		var tree *page.GetFrameTreeReply
		if tree, err = p.c.Page.GetFrameTree(ctx); err == nil {
			p.hist.AdoptTree(tree.FrameTree.Frame)
		}
	}
	p.initErr = err
	close(p.ready)
	if err != nil {
		slog.Debug("page set-up failed", "target", p.targetID, "err", err)
	}
	done(err)
}

func (p *Page) isReady() bool {
	select {
	case <-p.ready:
		return p.initErr == nil
	default:
		return false
	}
}

func (p *Page) markClosed() {
	if p.stopInit != nil {
		p.stopInit()
	}
	p.life.Close()
	p.changed.Notify()
}

// URL is the page's current address.
func (p *Page) URL() string { return p.hist.URL() }

// Context returns the browser context the page belongs to.
func (p *Page) Context() *BrowserContext { return p.bc }

// Usable returns why the page cannot run an operation now (a dialog is open, it
// crashed or closed), or nil.
func (p *Page) Usable() error { return p.usable() }

// usable returns why the page cannot run an operation now, or nil.
func (p *Page) usable() error {
	if !p.bc.b.Alive() {
		return p.bc.b.m.Err() // the browser is gone, and the tab with it
	}
	if err := p.life.Err(); err != nil {
		return err
	}
	if p.held.Load() {
		return p.heldError()
	}
	if d := p.dialogs.Current(); d != nil {
		return &DialogOpenError{Dialog: *d}
	}
	return nil
}

// uncrash marks a crashed page as usable again: it is being loaded anew in a
// new renderer.
func (p *Page) uncrash() {
	if p.life.Uncrash() {
		p.busy.Clear()
		p.changed.Notify()
	}
}

// guard derives a context that is cancelled, with the reason as its cause, as soon
// as the page becomes unusable (a dialog opens, it crashes or closes).
func (p *Page) guard(ctx context.Context) (context.Context, context.CancelFunc) {
	return p.guardExcept(ctx, nil)
}

// guardExcept is guard, but a dialog that pass answers (true) does not end ctx:
// pass has dealt with it.
func (p *Page) guardExcept(ctx context.Context, pass func(*Dialog) bool) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		for {
			ch := p.changed.Watch()
			if err := p.usable(); err != nil {
				if d := p.Dialog(); d != nil && pass != nil && pass(d) {
					continue
				}
				cancel(err)
				return
			}
			select {
			case <-ch:
			case <-p.bc.b.Done():
				cancel(p.bc.b.m.Err())
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, func() { cancel(nil) }
}

// cause turns a context error into the reason the guard gave (a dialog opened,
// the page crashed or closed), if that is why ctx ended.
func cause(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) && !errors.Is(c, context.DeadlineExceeded) {
		return c
	}
	return err
}
