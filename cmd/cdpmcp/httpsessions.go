package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/mark3labs/mcp-go/server"
)

// sessionLimits bound what HTTP clients can hold: every MCP session owns a
// browser context (tabs, cookies, storage, downloads).
type sessionLimits struct {
	// Idle is how long a session may go without a request in flight before it
	// ends and its browser context closes; 0 never.
	Idle time.Duration
	// Max is how many sessions may be open at once; 0 means no limit.
	Max int
	// Streams is how many requests one session may have open at once (tool
	// calls and listening streams); 0 means no limit.
	Streams int
}

// sessionGate sits in front of the streamable-HTTP handler and enforces
// sessionLimits, and that a session is used only with the token that opened it. It learns a session when an initialize answer carries its id,
// and forgets it on DELETE or expiry. An expired session is ended the way a
// client's DELETE would end it, so mcp-go forgets it and the tools layer
// closes its browser context; the client's next request gets 404 and a reason.
type sessionGate struct {
	next   http.Handler
	limits sessionLimits

	mu      sync.Mutex
	live    map[string]*liveSession
	opening int                  // initializes under way, holding a slot
	expired map[string]time.Time // ids ended for idleness, for a clear 404
	stop    chan struct{}
	once    sync.Once
}

type liveSession struct {
	tenant  string // whose token opened it: only that token may use it
	calls   int    // POST requests in flight: tool calls keep a session alive
	streams int    // all requests in flight, listening GET streams included
	last    time.Time
}

func newSessionGate(next http.Handler, limits sessionLimits) *sessionGate {
	g := &sessionGate{next: next, limits: limits, live: map[string]*liveSession{},
		expired: map[string]time.Time{}, stop: make(chan struct{})}
	if limits.Idle > 0 {
		go g.sweep()
	}
	return g
}

// Close stops the sweeper.
func (g *sessionGate) Close() { g.once.Do(func() { close(g.stop) }) }

// Sessions is the number of open sessions.
func (g *sessionGate) Sessions() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.live)
}

func (g *sessionGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(server.HeaderKeySessionID)
	if id == "" {
		g.open(w, r)
		return
	}
	g.mu.Lock()
	s := g.live[id]
	if s != nil && s.tenant != tenant.Of(r.Context()) {
		// Another token's session: answered as one that does not exist.
		g.mu.Unlock()
		http.Error(w, "Not Found: no such session", http.StatusNotFound)
		return
	}
	if s == nil {
		when, gone := g.expired[id]
		g.mu.Unlock()
		if gone {
			http.Error(w, fmt.Sprintf("Not Found: the session ended at %s after %s without a request (--session-idle-timeout); start a new session", when.Format(time.RFC3339), g.limits.Idle), http.StatusNotFound)
			return
		}
		g.next.ServeHTTP(w, r) // unknown to us: mcp-go answers it (404)
		return
	}
	if g.limits.Streams > 0 && s.streams >= g.limits.Streams {
		g.mu.Unlock()
		w.Header().Set("Retry-After", "1")
		http.Error(w, fmt.Sprintf("Too Many Requests: this session already has %d requests open (--max-session-streams); wait for one to finish", s.streams), http.StatusTooManyRequests)
		return
	}
	call := r.Method == http.MethodPost
	s.streams++
	if call {
		s.calls++
	}
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		s.streams--
		if call {
			s.calls--
		}
		s.last = time.Now()
		g.mu.Unlock()
	}()
	g.next.ServeHTTP(w, r)
	if r.Method == http.MethodDelete {
		g.mu.Lock()
		delete(g.live, id)
		g.mu.Unlock()
	}
}

// open passes a request without a session id (an initialize) if a session slot
// is free, and learns the session its answer names.
func (g *sessionGate) open(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	if g.limits.Max > 0 && len(g.live)+g.opening >= g.limits.Max {
		n := len(g.live)
		g.mu.Unlock()
		w.Header().Set("Retry-After", "5")
		http.Error(w, fmt.Sprintf("Service Unavailable: %d sessions are open, the most this server allows (--max-sessions); close one, or wait for idle ones to end", n), http.StatusServiceUnavailable)
		return
	}
	g.opening++
	g.mu.Unlock()
	rec := &sessionIDRecorder{ResponseWriter: w}
	defer func() {
		g.mu.Lock()
		g.opening--
		if rec.id != "" {
			g.live[rec.id] = &liveSession{tenant: tenant.Of(r.Context()), last: time.Now()}
		}
		g.mu.Unlock()
	}()
	g.next.ServeHTTP(rec, r)
}

// sweep ends idle sessions until Close.
func (g *sessionGate) sweep() {
	every := min(max(g.limits.Idle/4, 100*time.Millisecond), 30*time.Second)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-g.stop:
			return
		case now := <-tick.C:
			for _, id := range g.idle(now) {
				g.end(id)
			}
		}
	}
}

// idle takes the sessions idle for longer than the limit out of the live set.
func (g *sessionGate) idle(now time.Time) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for id, s := range g.live {
		if s.calls == 0 && now.Sub(s.last) > g.limits.Idle {
			delete(g.live, id)
			g.expired[id] = now
			out = append(out, id)
		}
	}
	for id, when := range g.expired { // remembered for a day, for the 404's reason
		if now.Sub(when) > 24*time.Hour {
			delete(g.expired, id)
		}
	}
	return out
}

// end terminates a session as a client's DELETE would: mcp-go forgets it and
// unregisters it, and the tools layer closes its browser context.
func (g *sessionGate) end(id string) {
	slog.Info("HTTP session ended after being idle", "session", id, "idle", g.limits.Idle)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodDelete, "/mcp", nil)
	req.Header.Set(server.HeaderKeySessionID, id)
	rec := httptest.NewRecorder()
	g.next.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		slog.Warn("end idle HTTP session", "session", id, "status", rec.Code, "body", rec.Body.String())
	}
}

// sessionIDRecorder notes the session id an initialize answer carries.
type sessionIDRecorder struct {
	http.ResponseWriter
	id string
}

func (r *sessionIDRecorder) WriteHeader(code int) {
	if code < 300 {
		r.id = r.Header().Get(server.HeaderKeySessionID)
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *sessionIDRecorder) Write(b []byte) (int, error) {
	if r.id == "" {
		r.id = r.Header().Get(server.HeaderKeySessionID)
	}
	return r.ResponseWriter.Write(b)
}

// Flush passes streaming through.
func (r *sessionIDRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (r *sessionIDRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
