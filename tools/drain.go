package tools

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// ShutdownError is the cause of a call stopped because the server shuts down.
type ShutdownError struct{ Reason string }

func (e *ShutdownError) Error() string { return "the server is shutting down (" + e.Reason + ")" }

// drain tracks the tool calls in flight, so that a server shutting down can
// let them finish, then stop the rest with a clear answer, and refuse new ones.
type drain struct {
	mu       sync.Mutex
	closing  *ShutdownError
	inflight map[*flight]bool
	idle     chan struct{} // closed when the last call in flight leaves while closing
}

type flight struct {
	cancel  context.CancelCauseFunc
	session string // the MCP session it came in, "" none
}

// SessionEndedError is the cause of a call stopped because its MCP session
// ended while it ran (the client's DELETE, or the server ended the session):
// its browser context is closed under it.
type SessionEndedError struct{}

func (*SessionEndedError) Error() string { return "this call's MCP session ended while it ran" }

// enter registers a call. It returns the call's context (cancelled, with a
// *ShutdownError as its cause, when the server stops it) and the function to
// call when it is done; or a *ShutdownError when the server takes no calls.
func (d *drain) enter(ctx context.Context) (context.Context, func(), *ShutdownError) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closing != nil {
		return nil, nil, d.closing
	}
	ctx, cancel := context.WithCancelCause(ctx)
	f := &flight{cancel: cancel}
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		f.session = cs.SessionID()
	}
	if d.inflight == nil {
		d.inflight = map[*flight]bool{}
	}
	d.inflight[f] = true
	return ctx, func() {
		cancel(nil)
		d.mu.Lock()
		defer d.mu.Unlock()
		delete(d.inflight, f)
		if d.closing != nil && len(d.inflight) == 0 && d.idle != nil {
			close(d.idle)
			d.idle = nil
		}
	}, nil
}

// shutdown refuses new calls from now on, waits up to grace for the calls in
// flight to finish, then stops those left (they answer that the server is
// shutting down) and waits briefly for them to answer.
func (d *drain) shutdown(grace time.Duration, reason string) {
	d.mu.Lock()
	if d.closing != nil {
		d.mu.Unlock()
		return
	}
	d.closing = &ShutdownError{Reason: reason}
	idle := make(chan struct{})
	if len(d.inflight) == 0 {
		close(idle)
	} else {
		d.idle = idle
	}
	n := len(d.inflight)
	d.mu.Unlock()
	if n > 0 {
		slog.Info("shutting down: waiting for calls in flight", "calls", n, "grace", grace)
	}
	select {
	case <-idle:
		return
	case <-time.After(grace):
	}
	d.mu.Lock()
	for f := range d.inflight {
		f.cancel(d.closing)
	}
	n = len(d.inflight)
	d.mu.Unlock()
	slog.Warn("shutting down: stopping calls still in flight", "calls", n)
	select {
	case <-idle:
	case <-time.After(2 * time.Second):
	}
}

// endSession stops the calls in flight of an MCP session that ended, before
// its browser context closes: they answer that the session ended, not that
// their page went away.
func (d *drain) endSession(session string) {
	if session == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for f := range d.inflight {
		if f.session == session {
			f.cancel(&SessionEndedError{})
		}
	}
}

// sessionEndedResult is the answer of a call whose session ended under it.
// Its client may still read it (a DELETE does not cut the call's stream).
func sessionEndedResult() *mcp.CallToolResult {
	return mcp.NewToolResultError("this call's MCP session ended while it ran (the client closed it with DELETE, or the server ended it): " +
		"its tabs and browser context are closed, so what the call did to the page is unknown" +
		"\nhint: start a new session (initialize without Mcp-Session-Id) and open the page again")
}

// stoppedBySessionEnd reports whether ctx ended because its session did.
func stoppedBySessionEnd(ctx context.Context) bool {
	var se *SessionEndedError
	return errors.As(context.Cause(ctx), &se)
}

// shutdownResult is the answer of a call refused or stopped by a shutdown.
func shutdownResult(err *ShutdownError, stopped bool) *mcp.CallToolResult {
	msg := err.Error() + ": this call was not run"
	if stopped {
		msg = err.Error() + ": this call was stopped before it finished, so what it did to the page is unknown"
	}
	return mcp.NewToolResultError(msg + "\nhint: call again once the server is back; queued and running jobs are kept and taken up when it restarts")
}

// stoppedByShutdown returns the *ShutdownError that ended ctx, or nil.
func stoppedByShutdown(ctx context.Context) *ShutdownError {
	var se *ShutdownError
	if errors.As(context.Cause(ctx), &se) {
		return se
	}
	return nil
}

// Shutdown stops taking tool calls: calls in flight get up to grace to finish,
// the rest are stopped and answer that the server is shutting down, as does
// every call from now on. reason (a signal, stdin closed) is told to callers.
// It returns once no call is in flight, or shortly after grace.
func (s *Server) Shutdown(grace time.Duration, reason string) { s.drain.shutdown(grace, reason) }
