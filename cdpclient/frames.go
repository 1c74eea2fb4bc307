package cdpclient

import (
	"context"
	"encoding/json"
	"log/slog"

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
	p.mu.Lock()
	p.frames[s.id] = f
	p.mu.Unlock()
	go p.initChild(f, ev.WaitingForDebugger)
}

func (p *Page) initChild(f *frameSession, waiting bool) {
	defer close(f.ready)
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	var calls []func() error
	if f.info.Type == "iframe" {
		calls = p.documentSetup(ctx, f.s, f.c)
	} else if p.bc.b.alwaysIntercept() {
		calls = append(calls, func() error { return p.bc.b.enableGuard(ctx, f.c) })
	}
	if waiting {
		calls = append(calls, func() error { return f.c.Runtime.RunIfWaitingForDebugger(ctx) })
	}
	err := f.s.inOrder(calls...)
	if err != nil {
		slog.Debug("child target set-up", "target", f.info.TargetID, "type", f.info.Type, "err", err)
	}
}

func (p *Page) detachChild(sessionID string) {
	p.mu.Lock()
	delete(p.frames, sessionID)
	p.mu.Unlock()
	p.worlds.forgetSession(sessionID)
	p.bc.b.m.Drop(sessionID)
}

// frameSessionFor returns the child session that hosts frame id, if it is out of
// process.
func (p *Page) frameSessionFor(id page.FrameID) *frameSession {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.frames {
		if string(f.info.TargetID) == string(id) {
			return f
		}
	}
	return nil
}

// documentSessions are the page's session and its out-of-process frames'.
func (p *Page) documentSessions() []*cdp.Client {
	out := []*cdp.Client{p.c}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.frames {
		if f.info.Type == "iframe" {
			out = append(out, f.c)
		}
	}
	return out
}
