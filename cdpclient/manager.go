package cdpclient

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// Manager hands out the browser, connecting lazily on first use. A browser this
// process launched is launched again after it dies; an attached browser is
// reconnected to once, and a clear error is returned when that fails.
type Manager struct {
	opts Options
	// connecting is a one-slot semaphore: one connection attempt at a
	// time, which a caller waits for only as long as its context lets it
	// (a launch on a loaded machine can take a minute).
	connecting chan struct{}

	mu       sync.Mutex
	b        *Browser
	restarts int
	closed   bool
	lost     string             // what happened to the browser last replaced, and what was done
	stop     context.CancelFunc // ends the connection attempt under way (Close)
}

// NewManager returns a Manager that connects as opts say, on first use.
func NewManager(opts Options) *Manager {
	if opts.Secrets == nil {
		opts.Secrets = secrets.New() // one registry across restarts
	}
	return &Manager{opts: opts, connecting: make(chan struct{}, 1)}
}

// Browser returns the connected browser, connecting (or reconnecting) first if
// needed. ctx bounds the connection attempt, and the wait for another
// caller's attempt: a caller whose context ends stops waiting, and the
// attempt goes on for the others.
func (m *Manager) Browser(ctx context.Context) (*Browser, error) {
	if b, err := m.alive(); b != nil || err != nil {
		return b, err
	}
	select {
	case m.connecting <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the browser to start: %w", context.Cause(ctx))
	}
	defer func() { <-m.connecting }()
	if b, err := m.alive(); b != nil || err != nil {
		return b, err // another caller's attempt connected (or Close came)
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	m.mu.Lock()
	m.stop = stop
	m.forgetLost()
	m.mu.Unlock()
	b, err := Connect(ctx, m.opts)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stop = nil
	switch {
	case m.closed:
		if b != nil {
			b.Close()
		}
		return nil, ErrBrowserClosed
	case err != nil && m.opts.attaching() && m.restarts > 0 && ctx.Err() == nil:
		return nil, &cdpconn.ConnectionError{Attached: m.opts.attachedName(), Reconnect: err}
	case err != nil:
		return nil, err
	}
	m.b = b
	return b, nil
}

// alive is the connected browser while it lives, ErrBrowserClosed after
// Close, and neither when a connection is needed.
func (m *Manager) alive() (*Browser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrBrowserClosed
	}
	if m.b != nil && m.b.Alive() {
		return m.b, nil
	}
	return nil, nil
}

// forgetLost lets go of a browser that died or was disconnected, saying what
// happened and what cdpmcp does about it. Called with m.mu held.
func (m *Manager) forgetLost() {
	lost := m.b
	if lost == nil {
		return
	}
	m.b = nil
	why := lost.lossReason()
	lost.Close()
	m.restarts++
	if m.opts.attaching() {
		slog.Warn("lost the attached browser; reconnecting", "endpoint", m.opts.attachedName(), "why", why)
		m.lost = why + "; cdpmcp connected to it again: its tabs and refs from before are gone"
	} else {
		slog.Warn("the browser exited; launching a new one", "why", why)
		m.lost = why + "; cdpmcp started a new one: tabs and refs from before are gone"
	}
}

// LastLoss says what happened to the browser last replaced (it exited, or
// its connection closed) and what cdpmcp did; "" if none was.
func (m *Manager) LastLoss() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lost
}

// Current returns the connected browser without connecting, or nil.
func (m *Manager) Current() *Browser {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.b
}

// Close disconnects for good: a launched browser is shut down and its temporary
// profile removed; an attached one is left running. It blocks until done.
func (m *Manager) Close() {
	m.mu.Lock()
	b, stop := m.b, m.stop
	m.b, m.closed = nil, true
	m.mu.Unlock()
	if stop != nil {
		stop() // a launch under way ends, and closes what it started
	}
	m.connecting <- struct{}{} // it has
	<-m.connecting
	if b != nil {
		b.Close()
	}
}

// attaching reports whether the options attach to a browser someone else
// started (an endpoint, or the user's Chrome found by AutoConnect) rather
// than launch one.
func (o Options) attaching() bool { return o.Endpoint != "" || o.AutoConnect }

// attachedName names the attached browser in messages: its endpoint with
// any token in it hidden, or "--auto-connect" for the user's Chrome.
func (o Options) attachedName() string {
	if o.AutoConnect {
		return "--auto-connect's Chrome"
	}
	return browserproc.DisplayEndpoint(o.Endpoint)
}
