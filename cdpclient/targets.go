package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"
)

// attachWorker keeps a session to a non-page target only to guard its requests.
func (b *Browser) attachWorker(ev *target.AttachedToTargetReply) {
	var c *cdp.Client
	s, err := b.open(string(ev.SessionID), func(method string, params json.RawMessage) {
		switch method {
		case "Fetch.requestPaused":
			b.guard.OnPaused(c, params, nil)
		case "Fetch.authRequired":
			b.guard.OnAuthRequired(c, params)
		}
	})
	if err != nil {
		return
	}
	c = cdp.NewClient(s.conn)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
		defer cancel()
		if err := b.guard.SetUp(ctx, c); err != nil {
			slog.Debug("guard worker", "target", ev.TargetInfo.TargetID, "type", ev.TargetInfo.Type, "err", err)
		}
		if ev.WaitingForDebugger {
			_ = c.Runtime.RunIfWaitingForDebugger(ctx)
		}
	}()
}

// releaseForeign resumes and detaches a target we do not manage.
func (b *Browser) releaseForeign(sessionID string, waiting bool) {
	ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
	defer cancel()
	if waiting {
		if s, err := b.open(sessionID, nil); err == nil {
			_ = rpcc.Invoke(ctx, "Runtime.runIfWaitingForDebugger", nil, nil, s.conn)
			_ = s.conn.Close()
		}
	}
	_ = b.client.Target.DetachFromTarget(ctx, target.NewDetachFromTargetArgs().SetSessionID(target.SessionID(sessionID)))
}

// toFront brings the page's tab to the front unless it is there already: input
// events sent to a tab in the background wait seconds for a frame that a hidden
// tab does not draw.
func (p *Page) toFront(ctx context.Context) error {
	b := p.bc.b
	b.mu.Lock()
	front := b.front == p
	b.mu.Unlock()
	if front {
		return nil
	}
	b.notePersonsFront(ctx)
	if err := p.c.Page.BringToFront(ctx); err != nil {
		return fmt.Errorf("bring tab to front: %w", err)
	}
	b.mu.Lock()
	b.front = p
	b.mu.Unlock()
	return nil
}
