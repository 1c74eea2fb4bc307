package cdpclient

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
)

// frameSession is a child target of a page: an out-of-process iframe or a worker,
// attached through the page's auto-attach.
type frameSession struct {
	s     *session
	c     *cdp.Client
	info  target.Info
	ready chan struct{}
	// parent is the session that attached it ("" for the page's own): the
	// session hosting the frame's parent document, where its <iframe> is.
	parent string
}

// children are a page's child sessions (out-of-process frames and workers)
// by session id.
type children struct {
	mu   sync.Mutex
	byID map[string]*frameSession
}

func (cs *children) add(f *frameSession) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.byID == nil {
		cs.byID = map[string]*frameSession{}
	}
	cs.byID[f.s.id] = f
}

func (cs *children) remove(id string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.byID, id)
}

// get returns the child of a session id, or nil once it is gone.
func (cs *children) get(id string) *frameSession {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.byID[id]
}

// iframes are the children that host documents (not workers).
func (cs *children) iframes() []*frameSession {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	var out []*frameSession
	for _, f := range cs.byID {
		if f.info.Type == "iframe" {
			out = append(out, f)
		}
	}
	return out
}

// hosting returns the child session that hosts frame id, if it is out of
// process.
func (cs *children) hosting(id page.FrameID) *frameSession {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, f := range cs.byID {
		if string(f.info.TargetID) == string(id) {
			return f
		}
	}
	return nil
}

// autoAttachChildren asks a session to attach out-of-process iframes and workers,
// paused until we have set them up.
func autoAttachChildren(ctx context.Context, c *cdp.Client) error {
	return c.Target.SetAutoAttach(ctx, target.NewSetAutoAttachArgs(true, true).SetFlatten(true))
}

func (p *Page) attachChild(parent string, ev *target.AttachedToTargetReply) {
	f := &frameSession{info: ev.TargetInfo, ready: make(chan struct{}), parent: parent}
	s, err := p.bc.b.open(string(ev.SessionID), func(method string, params json.RawMessage) {
		p.onSessionEvent(f.s.id, f.c, method, params)
	})
	if err != nil {
		slog.Debug("attach child target", "target", ev.TargetInfo.TargetID, "err", err)
		return
	}
	f.s = s
	f.c = cdp.NewClient(s.conn)
	p.children.add(f)
	go p.initChild(f, ev.WaitingForDebugger)
}

func (p *Page) initChild(f *frameSession, waiting bool) {
	defer close(f.ready)
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	var calls []func() error
	if f.info.Type == "iframe" {
		calls = p.documentSetup(ctx, f.s, f.c)
	} else if p.bc.b.guard.Always() {
		calls = append(calls, func() error { return p.bc.b.guard.SetUp(ctx, f.c) })
	}
	if waiting {
		calls = append(calls, func() error { return f.c.Runtime.RunIfWaitingForDebugger(ctx) })
	}
	err := f.s.wire.InOrder(calls...)
	if err != nil {
		slog.Debug("child target set-up", "target", f.info.TargetID, "type", f.info.Type, "err", err)
	}
}

func (p *Page) detachChild(sessionID string) {
	p.children.remove(sessionID)
	p.worlds.ForgetSession(sessionID)
	p.bc.b.m.Drop(sessionID)
}

// documentSessions are the page's session and its out-of-process frames'.
func (p *Page) documentSessions() []*cdp.Client {
	out := []*cdp.Client{p.c}
	for _, f := range p.children.iframes() {
		out = append(out, f.c)
	}
	return out
}
