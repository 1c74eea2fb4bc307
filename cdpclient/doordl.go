package cdpclient

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp/protocol/page"
)

// Features in the core's cycles. A feature that answers for what the browser
// does at its own level (the downloads of cdpclient/network) sets up each
// browser context for it, hears the browser's own events and adds what it
// saw to each action's answer, without the core naming it: it registers its
// Hooks once, in its package's init (AddHooks), and every browser connected
// after that runs them.

// Hooks are a feature's calls in the core's cycles; any may be nil.
type Hooks struct {
	// Context sets up a browser context: the default one as a browser
	// connects, each one cdpmcp creates as it is made, before
	// Options.SetupContext. An error fails the connection or the context.
	// closed, if not nil, runs once a context cdpmcp created is closed.
	Context func(ctx context.Context, bc *BrowserContext) (closed func(), err error)
	// BrowserEvent hears each event of the browser's own session. It runs on
	// the connection's read goroutine: record and return, never block nor
	// call the browser.
	BrowserEvent func(b *Browser, method string, params json.RawMessage)
	// Action starts watching an action on p, as the action begins (under
	// the page's action lock); the Observer it returns (nil: none) sees the
	// action through.
	Action func(p *Page) Observer
}

// Observer is a feature's watch of one action (Hooks.Action).
type Observer interface {
	// Aborted reports whether a navigation of the action, which the browser
	// answered net::ERR_ABORTED, went where the feature saw it go (the URL
	// answered with a file, which downloads): then the navigation is done
	// and the page stays. It may wait a moment for the browser's word.
	Aborted(ctx context.Context) bool
	// Feedback adds to the action's answer what the feature saw during the
	// action, once the core has assembled the rest.
	Feedback(ctx context.Context, fb *feedback.Feedback)
}

// featureHooks are the features' Hooks (AddHooks).
var featureHooks []Hooks

// AddHooks adds a feature's hooks to every browser connected from now on.
// Call it only from the feature package's Register (before any browser starts).
func AddHooks(h Hooks) { featureHooks = append(featureHooks, h) }

// setUp runs the features' set-up of a context (Hooks.Context); after an
// error, what those set up already do once it is closed.
func (b *Browser) setUp(ctx context.Context, bc *BrowserContext) error {
	for _, h := range b.hooks {
		if h.Context == nil {
			continue
		}
		closed, err := h.Context(ctx, bc)
		if err != nil {
			bc.closed()
			return err
		}
		if closed != nil {
			bc.hooks.mu.Lock()
			bc.hooks.closed = append(bc.hooks.closed, closed)
			bc.hooks.mu.Unlock()
		}
	}
	return nil
}

// closed runs what the features do once the context is closed.
func (bc *BrowserContext) closed() {
	bc.hooks.mu.Lock()
	fns := bc.hooks.closed
	bc.hooks.closed = nil
	bc.hooks.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// observers start the features' watch of an action on p (Hooks.Action).
func (p *Page) observers() []Observer {
	var out []Observer
	for _, h := range p.bc.b.hooks {
		if h.Action != nil {
			if o := h.Action(p); o != nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// abortedSeen reports whether a feature watching the running action saw
// where its navigation, answered net::ERR_ABORTED, went (Observer.Aborted).
func (p *Page) abortedSeen(ctx context.Context) bool {
	st := stateOf(ctx, p)
	if st == nil || st.o == nil {
		return false
	}
	for _, o := range st.o.observers {
		if o.Aborted(ctx) {
			return true
		}
	}
	return false
}

// Options are the options the browser was connected with.
func (b *Browser) Options() Options { return b.opts }

// Profile is the profile folder of a browser this process launched, "" for
// an attached one.
func (b *Browser) Profile() string {
	if b.proc == nil {
		return ""
	}
	return b.proc.Profile()
}

// PageOfFrame is the page whose main frame, or one of whose out-of-process
// frames, is frame; nil when none is (a frame inside a page's own process is
// found in the page's frame tree).
func (b *Browser) PageOfFrame(frame string) *Page {
	b.mu.Lock()
	pages := make([]*Page, 0, len(b.pages))
	for _, p := range b.pages {
		pages = append(pages, p)
	}
	b.mu.Unlock()
	for _, p := range pages {
		if string(p.hist.Main()) == frame || p.children.hosting(page.FrameID(frame)) != nil {
			return p
		}
	}
	return nil
}
