package tools

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/mark3labs/mcp-go/server"
)

// sessions maps MCP sessions to browser contexts.
type sessions struct {
	mgr     *cdpclient.Manager
	isolate bool
	// secrets is the registry family each context is given its tenant's of.
	secrets *secrets.Registry

	mu   sync.Mutex
	byID map[string]*clientState
	// ending are recordings of a browser that went away, being written;
	// closeAll waits for them.
	ending sync.WaitGroup
}

type clientState struct {
	mu   sync.Mutex
	bc   *cdpclient.BrowserContext // in the browser the session last used
	note string                    // told with the next result: the browser was replaced
	// named are the session's named contexts, current the one tools act in
	// ("" for bc) (contexts.go).
	named   map[string]*cdpclient.BrowserContext
	current string
}

func newSessions(mgr *cdpclient.Manager, isolate bool, reg *secrets.Registry) *sessions {
	return &sessions{mgr: mgr, isolate: isolate, secrets: reg, byID: map[string]*clientState{}}
}

// context returns the browser context of the calling MCP session, connecting to
// the browser and creating the context on first use (and again after a restart).
func (ss *sessions) context(ctx context.Context) (*cdpclient.BrowserContext, error) {
	id := ss.key(ctx)
	ss.mu.Lock()
	st := ss.byID[id]
	if st == nil {
		st = &clientState{}
		ss.byID[id] = st
	}
	ss.mu.Unlock()

	b, err := ss.mgr.Browser(ctx)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.bc == nil || st.bc.Browser() != b {
		if st.bc != nil {
			st.note = "note: " + ss.mgr.LastLoss()
			// Their recordings end with what they hold (off the lock: a
			// video's screencast is stopped with a timeout).
			gone := []*cdpclient.BrowserContext{st.bc}
			for _, n := range st.named {
				gone = append(gone, n)
			}
			ss.ending.Go(func() {
				for _, bc := range gone {
					actions.EndRecording(bc)
				}
			})
		}
		st.named, st.current = nil, "" // they lived in the browser that went away
		bc := b.Default()
		if ss.isolate {
			if bc, err = b.NewContext(ctx); err != nil {
				return nil, err
			}
		}
		// What goes into its password fields is its tenant's.
		bc.UseSecrets(ss.secrets.Tenant(tenant.Of(ctx)))
		st.bc = bc
	}
	return st.currentLocked(), nil
}

// takeNote returns (once) what the calling session must be told besides its
// result.
func (ss *sessions) takeNote(ctx context.Context) string {
	ss.mu.Lock()
	st := ss.byID[ss.key(ctx)]
	ss.mu.Unlock()
	if st == nil {
		return ""
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	n := st.note
	st.note = ""
	return n
}

// key names the calling MCP session's state: its own with isolated sessions,
// else the one all sessions share.
func (ss *sessions) key(ctx context.Context) string {
	if cs := server.ClientSessionFromContext(ctx); cs != nil && ss.isolate {
		return cs.SessionID()
	}
	return ""
}

func (ss *sessions) drop(id string) {
	ss.mu.Lock()
	st := ss.byID[id]
	delete(ss.byID, id)
	ss.mu.Unlock()
	if st != nil {
		st.close()
	}
}

func (ss *sessions) closeAll() {
	ss.mu.Lock()
	all := ss.byID
	ss.byID = map[string]*clientState{}
	ss.mu.Unlock()
	for _, st := range all {
		st.close()
	}
	ss.ending.Wait()
}

func (st *clientState) close() {
	st.mu.Lock()
	bc, named := st.bc, st.named
	st.bc, st.named, st.current = nil, nil, ""
	st.mu.Unlock()
	closeNamed(named)
	if bc == nil {
		return
	}
	actions.EndRecording(bc)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := bc.Close(ctx); err != nil {
		slog.Debug("close browser context", "err", err)
	}
}
