package cdpclient

import (
	"context"
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

	mu       sync.Mutex
	b        *Browser
	restarts int
	closed   bool
	lost     string // what happened to the browser last replaced, and what was done
}

// NewManager returns a Manager that connects as opts say, on first use.
func NewManager(opts Options) *Manager {
	if opts.Secrets == nil {
		opts.Secrets = secrets.New() // one registry across restarts
	}
	return &Manager{opts: opts}
}

// Browser returns the connected browser, connecting (or reconnecting) first if
// needed. ctx bounds the connection attempt.
func (m *Manager) Browser(ctx context.Context) (*Browser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrBrowserClosed
	}
	if m.b != nil && m.b.Alive() {
		return m.b, nil
	}
	if lost := m.b; lost != nil {
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
	b, err := Connect(ctx, m.opts)
	if err != nil {
		if m.opts.attaching() && m.restarts > 0 && ctx.Err() == nil {
			return nil, &cdpconn.ConnectionError{Attached: m.opts.attachedName(), Reconnect: err}
		}
		return nil, err
	}
	m.b = b
	return b, nil
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
	b := m.b
	m.b, m.closed = nil, true
	m.mu.Unlock()
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
