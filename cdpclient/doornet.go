package cdpclient

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Page events for features: a feature that answers about what a page did
// before it was asked (a request's details and bodies, which history entries
// came from a form post, how a document's response was secured:
// cdpclient/network) must hear the page's events from its first one. It
// registers a listener maker once, in its package's init (OnPageEvents); every
// page made after that calls it as the page is created, before its session
// sends anything, and the listener it returns then hears every event of the
// page's sessions. Only code that imports the feature can read what it
// records, so whoever reads it has it recorded.

// PageListener hears one event of a page's sessions: session is "" for the
// page's own, else the id of the out-of-process frame's session that sent it
// (for Door.Session). It runs on the connection's read goroutine: it must
// record and return, never block nor call the browser.
type PageListener func(session, method string, params json.RawMessage)

// pageListeners are the features' listener makers (OnPageEvents).
var pageListeners struct {
	mu     sync.Mutex
	makers []func(Door) PageListener
}

// OnPageEvents adds a listener to every page made from now on: listen runs
// once per page, as it is created (it may keep its state in Door.Slot; the
// page has no session yet), and returns the page's listener. Call it from a
// feature package's Register (before any browser starts).
func OnPageEvents(listen func(d Door) PageListener) {
	pageListeners.mu.Lock()
	defer pageListeners.mu.Unlock()
	pageListeners.makers = append(pageListeners.makers, listen)
}

// newListeners makes a new page's listeners.
func newListeners(p *Page) []PageListener {
	pageListeners.mu.Lock()
	makers := append([]func(Door) PageListener(nil), pageListeners.makers...)
	pageListeners.mu.Unlock()
	out := make([]PageListener, 0, len(makers))
	for _, listen := range makers {
		if l := listen(Door{p}); l != nil {
			out = append(out, l)
		}
	}
	return out
}

// tell hands an event of one of the page's sessions to its listeners.
func (p *Page) tell(session, method string, params json.RawMessage) {
	for _, l := range p.listeners {
		l(session, method, params)
	}
}

// Session is the page's session a PageListener named: "" is the page's own,
// else an out-of-process frame's, an error once that frame is gone.
func (d Door) Session(id string) (Session, error) {
	p := d.p
	if id == "" {
		return Session{s: p.s, c: p.c}, nil
	}
	f := p.children.get(id)
	if f == nil {
		return Session{}, fmt.Errorf("the frame that made the request is gone")
	}
	return Session{s: f.s, c: f.c, id: id}, nil
}
