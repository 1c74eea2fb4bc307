package cdpclient

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/mafredri/cdp/protocol/browser"
	"github.com/mafredri/cdp/protocol/target"
)

// BrowserContext is a set of pages sharing cookies and storage: the browser's
// default context or an isolated one created for one client. Pages get short ids
// (p1, p2, …) that are never reused within the context.
type BrowserContext struct {
	b     *Browser
	id    string       // browserContextId; "" for the default context
	own   bool         // created by us: disposed on Close
	hooks contextHooks // what features hang on the context (doorhooks.go)

	mu      sync.Mutex
	pages   map[string]*Page
	order   []*Page // in order of arrival
	current *Page
	seq     int // counts pages ever added, for "opened since" questions
	ids     int // counts pages ever announced: their ids
	added   chan struct{}
	// watchers see each page as it arrives (OnPage).
	watchers map[int]func(*Page)
	nextW    int
	// waitingForSetUp, if set (tests), is called as Page starts waiting for
	// a tab being set up.
	waitingForSetUp func()
}

func newBrowserContext(b *Browser, id string, own bool) *BrowserContext {
	return &BrowserContext{b: b, id: id, own: own, pages: make(map[string]*Page), added: make(chan struct{})}
}

// Browser returns the browser this context belongs to.
func (bc *BrowserContext) Browser() *Browser { return bc.b }

// announce gives a page its id and shows it to the watchers (OnPage), once it
// is set up and before it runs.
func (bc *BrowserContext) announce(p *Page) {
	bc.mu.Lock()
	bc.ids++
	p.ID = "p" + strconv.Itoa(bc.ids)
	watchers := make([]func(*Page), 0, len(bc.watchers))
	for _, fn := range bc.watchers {
		watchers = append(watchers, fn)
	}
	bc.mu.Unlock()
	for _, fn := range watchers {
		fn(p)
	}
}

// add makes an announced page one of the context's.
func (bc *BrowserContext) add(p *Page) {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.pages[p.ID] == p {
		return // listed held before its set-up finished (heldtab.go)
	}
	bc.seq++
	p.seq = bc.seq
	bc.pages[p.ID] = p
	bc.order = append(bc.order, p)
	if bc.current == nil {
		bc.current = p
	}
	close(bc.added)
	bc.added = make(chan struct{})
}

// OnPage calls fn with each page that arrives in the context from now on, as
// it arrives: before it runs (a popup is still paused, a new tab has not
// navigated) and before whoever opened it gets it. fn must return quickly.
// stop ends the watch.
func (bc *BrowserContext) OnPage(fn func(*Page)) (stop func()) {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.watchers == nil {
		bc.watchers = map[int]func(*Page){}
	}
	bc.nextW++
	id := bc.nextW
	bc.watchers[id] = fn
	return func() {
		bc.mu.Lock()
		defer bc.mu.Unlock()
		delete(bc.watchers, id)
	}
}

func (bc *BrowserContext) remove(p *Page) {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.pages[p.ID] != p {
		return
	}
	delete(bc.pages, p.ID)
	for i, q := range bc.order {
		if q == p {
			bc.order = append(bc.order[:i], bc.order[i+1:]...)
			break
		}
	}
	bc.b.mu.Lock()
	if bc.b.front == p {
		bc.b.front = nil
	}
	bc.b.mu.Unlock()
	if bc.current == p {
		// A popup that closes (a sign-in window done) hands back to the tab
		// that opened it, as a browser does; else the latest tab.
		bc.current = nil
		if o := p.opener(); o != nil && bc.pages[o.ID] == o {
			bc.current = o
		} else if n := len(bc.order); n > 0 {
			bc.current = bc.order[n-1]
		}
	}
}

// Pages lists the open pages in the order they arrived.
func (bc *BrowserContext) Pages() []*Page {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	return append([]*Page(nil), bc.order...)
}

// PagesSince returns, in order of arrival, the pages still open that arrived
// after the page count was seq. Use Seq to take a mark.
func (bc *BrowserContext) PagesSince(seq int) []*Page {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	var out []*Page
	for _, p := range bc.order {
		if p.seq > seq {
			out = append(out, p)
		}
	}
	return out
}

// arrived returns a channel closed when the next page arrives.
func (bc *BrowserContext) arrived() <-chan struct{} {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	return bc.added
}

// Seq is the number of pages that ever arrived in this context.
func (bc *BrowserContext) Seq() int {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	return bc.seq
}

// Page returns the page with the given id, or the current page when id is empty.
// With no page open yet, it waits (within ctx) for a tab of the context that
// is being set up, such as a launched browser's first tab on a loaded
// machine, rather than open a second one; with none at all, it opens a blank
// one.
func (bc *BrowserContext) Page(ctx context.Context, id string) (*Page, error) {
	if id == "" {
		if p, err := bc.currentOrSetUp(ctx); p != nil || err != nil {
			if p != nil {
				p.waitHeld(ctx)
			}
			return p, err
		}
		return bc.NewPage(ctx)
	}
	bc.mu.Lock()
	p := bc.pages[id]
	ids := make([]string, 0, len(bc.order))
	for _, q := range bc.order {
		ids = append(ids, q.ID)
	}
	bc.mu.Unlock()
	if p == nil {
		return nil, &UnknownPageError{ID: id, Open: ids}
	}
	p.waitHeld(ctx)
	return p, nil
}

// Current returns the current page, or nil when no page is open.
func (bc *BrowserContext) Current() *Page {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	return bc.current
}

// SetCurrent makes p the page that tools use when they name none.
func (bc *BrowserContext) SetCurrent(p *Page) {
	bc.mu.Lock()
	if bc.pages[p.ID] == p {
		bc.current = p
	}
	bc.mu.Unlock()
}

// NewPage opens a blank tab in this context, makes it current and returns it
// once it is ready for use.
func (bc *BrowserContext) NewPage(ctx context.Context) (*Page, error) {
	b := bc.b
	args := target.NewCreateTargetArgs("about:blank")
	if bc.id != "" {
		args.SetBrowserContextID(browserContextID(bc.id))
	}
	b.notePersonsFront(ctx) // the new tab opens in front
	r, err := b.client.Target.CreateTarget(ctx, args)
	if err != nil {
		return nil, fmt.Errorf("open page: %w", err)
	}
	b.markOwn(r.TargetID)
	p, err := b.waitForPage(ctx, r.TargetID)
	if err != nil {
		return nil, err
	}
	bc.SetCurrent(p)
	return p, nil
}

// waitForPage waits (up to ctx's deadline) until the target is attached and ready.
func (b *Browser) waitForPage(ctx context.Context, id target.ID) (*Page, error) {
	b.mu.Lock()
	if p := b.pages[id]; p != nil && p.isReady() {
		b.mu.Unlock()
		return p, nil
	}
	w := make(chan *Page, 1)
	b.waiters[id] = w // under the lock of the check: init cannot slip between
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, setupTimeout)
	defer cancel()
	select {
	case p := <-w:
		if p.initErr != nil {
			return nil, fmt.Errorf("set up page: %w", p.initErr)
		}
		return p, nil
	case <-b.Done():
		return nil, ErrBrowserClosed
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.waiters, id)
		b.mu.Unlock()
		return nil, fmt.Errorf("new page did not become ready: %w", ctx.Err())
	}
}

// Close closes the context's pages; an isolated context is disposed of.
func (bc *BrowserContext) Close(ctx context.Context) error {
	if !bc.own {
		return nil
	}
	b := bc.b
	b.mu.Lock()
	delete(b.contexts, bc.id)
	b.mu.Unlock()
	defer bc.closed()
	if !b.Alive() {
		return nil
	}
	return b.client.Target.DisposeBrowserContext(ctx, target.NewDisposeBrowserContextArgs(browserContextID(bc.id)))
}

func browserContextID(id string) browser.ContextID { return browser.ContextID(id) }

// ID is the browser's id for an isolated context, "" for the default one.
func (bc *BrowserContext) ID() string { return bc.id }
