package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/liveview"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// defaultHandoffTimeout bounds a wait for a person when Config.HandoffTimeout
// is not set.
const defaultHandoffTimeout = 30 * time.Minute

// withoutPerson is the hint when no person took the tab or gave it back
// done: a page's or a person's matter, not cdpmcp's.
const withoutPerson = "no person did it: go on without one if the task allows, or finish and say what needs a person"

// askHuman returns run_browser_agent's ask_human for this request: it hands
// the agent's tab to a person through the live view, asks the client to open
// the view for its user (URL elicitation) or, failing that, says where it is
// in a progress notification, and waits until the person hands the tab back
// or gives up, at most the handoff timeout. It is nil, and ask_human is not
// offered, when no person can be reached: no live view, or a client that can
// neither open a URL nor show progress. step is the progress so far.
func (s *Server) askHuman(ctx context.Context, req mcp.CallToolRequest, step func() float64, maxSteps int) func(context.Context, string) (string, error) {
	lv := s.cfg.LiveView
	session := server.ClientSessionFromContext(ctx)
	elicit := session != nil && canOpenURLs(ctx, session)
	var token mcp.ProgressToken
	if req.Params.Meta != nil {
		token = req.Params.Meta.ProgressToken
	}
	if lv == nil || (!elicit && token == nil) {
		return nil
	}
	return func(ctx context.Context, reason string) (string, error) {
		tab, err := s.env.Page(ctx, "")
		if err != nil {
			return "", err
		}
		timeout := s.cfg.HandoffTimeout
		if timeout <= 0 {
			timeout = defaultHandoffTimeout
		}
		var b [8]byte
		_, _ = rand.Read(b[:])
		key := "agent-" + hex.EncodeToString(b[:])
		type handBack struct {
			gaveUp bool
			why    string
		}
		back := make(chan handBack, 1)
		url, err := lv.Offer(liveview.Offer{
			Key: key, Tab: tab, Title: "run_browser_agent", Reason: reason, Expires: time.Now().Add(timeout),
			Secrets: tab.Context().Secrets(),
			Done:    func(context.Context) error { back <- handBack{}; return nil },
			GiveUp:  func(_ context.Context, why string) error { back <- handBack{gaveUp: true, why: why}; return nil },
		})
		if err != nil {
			return "", fmt.Errorf("the tab could not be handed to a person: %w", err)
		}
		defer lv.Withdraw(key)
		msg := "The browser agent needs a person: " + reason + ". Open the link to take over its tab, then press \"Done\" there."
		var answered <-chan mcp.ElicitationResponseAction
		if elicit {
			if e := s.asks.open(key, session, s.mcp, url, s.secretsFor(ctx).Redact(msg), time.Now().Add(timeout)); e != nil {
				answered = e.answer
				defer s.asks.close(key)
			}
		}
		tell := func() {
			if token == nil {
				return
			}
			err := s.notify(ctx, "notifications/progress", map[string]any{
				"progressToken": token, "progress": step(), "total": maxSteps, "message": msg + " " + url,
			})
			if err != nil {
				slog.Debug("agent handoff progress", "err", err)
			}
		}
		if answered == nil {
			tell()
		}
		wait := time.NewTimer(timeout)
		defer wait.Stop()
		for {
			select {
			case hb := <-back:
				if hb.gaveUp {
					if hb.why == "" {
						hb.why = "no reason given"
					}
					return "", &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "the person gave up: " + hb.why, Hint: withoutPerson}
				}
				return "", nil
			case action, ok := <-answered:
				answered = nil
				if !ok {
					tell() // the client could not be asked after all
				} else if action != mcp.ElicitationResponseActionAccept {
					return "", &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "the user declined to take over the tab", Hint: withoutPerson}
				}
			case <-ctx.Done():
				return "", ctx.Err()
			case <-wait.C:
				return "", &cdpclient.Error{Code: cdpclient.CodeTimeout, Msg: fmt.Sprintf("no one handed the tab back within %s", timeout), Hint: withoutPerson}
			}
		}
	}
}
