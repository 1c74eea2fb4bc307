package jobs

import (
	"context"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// A browser service (Browserless, Browserbase, Steel, a pool of one's own)
// hands out a fresh browser on each connection to its endpoint and ends it
// when the connection closes. A worker given one (--browser-pool:
// cdpclient.Options.Pool) connects once per job without a profile: the job
// has the browser to itself, from its first tab to its end, and nothing of
// it outlives the job. A connection the service drops in the middle is a
// browser gone: the job follows the restart rules (failure.go), and its next
// run connects again.

// pooled are the pool's browsers jobs hold now, ended with the fleet.
type pooled struct {
	mu   sync.Mutex
	mgrs map[*cdpclient.Manager]bool
}

// poolContext lends a job a fresh browser of its own from the service at
// f.base.Endpoint; the lease's end closes the connection, which ends the
// browser at the service.
func (f *fleet) poolContext(ctx context.Context) (*lease, error) {
	mgr := cdpclient.NewManager(f.base)
	if !f.pool.add(mgr) {
		return nil, cdpclient.ErrBrowserClosed
	}
	end := func() {
		f.pool.remove(mgr)
		mgr.Close()
	}
	b, err := mgr.Browser(ctx)
	if err != nil {
		end()
		return nil, &unavailableError{what: "take a browser from the pool", err: err}
	}
	l := &lease{bc: b.Default(), done: func(*cdpclient.Page) { end() }}
	if pages := l.bc.Pages(); len(pages) > 0 {
		l.tab = pages[0] // the service's first tab: a new one would cost a renderer
	}
	return l, nil
}

// add records a job's pool browser; false once the fleet is closed.
func (p *pooled) add(m *cdpclient.Manager) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mgrs == nil {
		p.mgrs = map[*cdpclient.Manager]bool{}
	}
	if p.mgrs[nil] {
		return false
	}
	p.mgrs[m] = true
	return true
}

func (p *pooled) remove(m *cdpclient.Manager) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.mgrs, m)
}

// close ends the pool browsers jobs still hold and takes no more.
func (p *pooled) close() {
	p.mu.Lock()
	mgrs := p.mgrs
	p.mgrs = map[*cdpclient.Manager]bool{nil: true}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for m := range mgrs {
		if m != nil {
			wg.Go(m.Close)
		}
	}
	wg.Wait()
}
