package tools

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/liveview"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// JobHandoff hands the tab of a job that waits for a person to the live view
// (it is the queue's jobs.Handoff) and asks the client that submitted the job
// to open the view for its user, when the client can (URL elicitation, MCP
// 2025-11-25); otherwise the job's status carries the URL (handoffUrl). Give
// it to the queue (jobs.Config.Handoff) and to the server (Config.JobHandoff).
type JobHandoff struct {
	lv    *liveview.Server
	queue func(context.Context) (*jobs.Queue, error)

	mu  sync.Mutex
	srv *Server
}

var _ jobs.Handoff = (*JobHandoff)(nil)

// NewJobHandoff returns the handoff of the jobs queue returns, through lv.
func NewJobHandoff(lv *liveview.Server, queue func(context.Context) (*jobs.Queue, error)) *JobHandoff {
	return &JobHandoff{lv: lv, queue: queue}
}

func (h *JobHandoff) bind(s *Server) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.srv = s
}

// Offer implements jobs.Handoff: the person's Done resumes the job, their
// Give up fails it with their reason.
func (h *JobHandoff) Offer(ctx context.Context, job *jobs.Job, tab *cdpclient.Page, reason string) (string, error) {
	expires, _ := ctx.Deadline()
	id, owner := job.ID, job.Tenant
	url, err := h.lv.Offer(liveview.Offer{
		Key: id, Tab: tab, Title: fmt.Sprintf("Job %s (%s)", id, job.Task.Type), Reason: reason, Expires: expires,
		Secrets: tab.Context().Secrets(),
		Done: func(ctx context.Context) error {
			q, err := h.queue(ctx)
			if err == nil {
				// The link is the person's key: they act for the job's tenant.
				_, err = q.Resume(tenant.With(ctx, owner), id, "")
			}
			return err
		},
		GiveUp: func(ctx context.Context, why string) error {
			q, err := h.queue(ctx)
			if err == nil {
				_, err = q.GiveUp(ctx, id, why)
			}
			return err
		},
	})
	if err != nil {
		return "", err
	}
	h.mu.Lock()
	srv := h.srv
	h.mu.Unlock()
	if srv != nil {
		msg := fmt.Sprintf("Job %s (%s) needs a person: %s. Open the link to take over its browser tab, "+
			"then press \"Done — resume the job\" there.", id, job.Task.Type, reason)
		srv.asks.open(id, srv.submitters.get(id), srv.mcp, url, srv.secrets.Tenant(owner).Redact(msg), expires)
	}
	return url, nil
}

// Withdraw implements jobs.Handoff.
func (h *JobHandoff) Withdraw(jobID string) {
	h.lv.Withdraw(jobID)
	h.mu.Lock()
	srv := h.srv
	h.mu.Unlock()
	if srv != nil {
		srv.asks.close(jobID)
	}
}

// submitters remembers, for each job that may need a person, the MCP session
// that submitted it if its client can open a URL for its user.
type submitters struct {
	mu   sync.Mutex
	byID map[string]server.ClientSession
}

func (ss *submitters) note(ctx context.Context, jobID string) {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil || !canOpenURLs(ctx, cs) {
		return
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.byID == nil {
		ss.byID = map[string]server.ClientSession{}
	}
	ss.byID[jobID] = cs
}

func (ss *submitters) get(jobID string) server.ClientSession {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.byID[jobID]
}

// drop forgets a session that ended.
func (ss *submitters) drop(sessionID string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for id, cs := range ss.byID {
		if cs.SessionID() == sessionID {
			delete(ss.byID, id)
		}
	}
}

// canOpenURLs reports whether a session's client asks its user to open URLs
// for a server (URL-mode elicitation) over a connection where the server may
// send it requests.
func canOpenURLs(ctx context.Context, cs server.ClientSession) bool {
	var caps mcp.ClientCapabilities
	if ci, ok := cs.(server.SessionWithClientInfo); ok {
		caps = ci.GetClientCapabilities()
	}
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if _, inProcess := cs.(*server.InProcessSession); !inProcess {
			return false // 2026-07-28 has no server-initiated requests
		}
		if info.ClientCapabilities != nil {
			caps = *info.ClientCapabilities // declared with each request
		}
	}
	_, can := cs.(server.SessionWithElicitation)
	return can && caps.Elicitation != nil && caps.Elicitation.URL != nil
}

// elicitations are the URL elicitations under way, by what waits.
type elicitations struct {
	mu    sync.Mutex
	byKey map[string]*elicitation
}

type elicitation struct {
	id      string
	session server.ClientSession
	srv     *server.MCPServer
	cancel  context.CancelFunc
	answer  chan mcp.ElicitationResponseAction // accept, decline or cancel; closed on failure
}

// open asks the client of session (one that can open URLs, or nil) to open
// url for its user, on a goroutine, until expires or close; it returns nil
// without a session.
func (es *elicitations) open(key string, session server.ClientSession, srv *server.MCPServer, url, msg string, expires time.Time) *elicitation {
	if session == nil {
		return nil
	}
	if expires.IsZero() {
		expires = time.Now().Add(liveview.DefaultTTL)
	}
	ctx, cancel := context.WithDeadline(context.Background(), expires)
	e := &elicitation{id: "handoff-" + key, session: session, srv: srv, cancel: cancel, answer: make(chan mcp.ElicitationResponseAction, 1)}
	es.mu.Lock()
	if es.byKey == nil {
		es.byKey = map[string]*elicitation{}
	}
	old := es.byKey[key]
	es.byKey[key] = e
	es.mu.Unlock()
	if old != nil {
		old.cancel()
	}
	go func() {
		res, err := srv.RequestURLElicitation(ctx, session, e.id, url, msg)
		if err != nil {
			slog.Debug("the client was not asked to open the live view", "key", key, "err", err)
			close(e.answer)
			return
		}
		slog.Info("the client answered the request to open the live view", "key", key, "action", res.Action)
		e.answer <- res.Action
	}()
	return e
}

// close ends the elicitation of key, telling the client the interaction is
// over (notifications/elicitation/complete).
func (es *elicitations) close(key string) {
	es.mu.Lock()
	e := es.byKey[key]
	delete(es.byKey, key)
	es.mu.Unlock()
	if e == nil {
		return
	}
	e.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := e.srv.SendElicitationComplete(ctx, e.session, e.id); err != nil {
		slog.Debug("tell the client the live view is over", "key", key, "err", err)
	}
}
