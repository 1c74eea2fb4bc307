package cdpclient

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/internal/poll"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/fetch"
	"github.com/mafredri/cdp/protocol/network"
)

// The request guard enforces the origin policy on every request of every target
// it is attached to: pages (popups and window.open included, since they are
// attached paused), their out-of-process frames, dedicated, shared and service
// workers. Each request is paused by the Fetch domain and continued or failed
// (net::ERR_BLOCKED_BY_CLIENT) before it leaves the browser, so redirects, meta
// refreshes, form posts, fetch/XHR and subresources are covered alike.
// WebSocket handshakes do not pass through Fetch; see docs/security.md.

// enableGuard turns interception on for a session when a policy is set, or
// proxy credentials are to be answered (proxyauth.go).
func (b *Browser) enableGuard(ctx context.Context, c *cdp.Client) error {
	if !b.alwaysIntercept() {
		return nil
	}
	return b.interceptEverything(ctx, c)
}

// PausedRequest is the part of Fetch.requestPaused the guard reads, and hands
// to a feature that answers requests (ContextHook.Paused).
type PausedRequest struct {
	RequestID fetch.RequestID `json:"requestId"`
	Request   struct {
		URL     string            `json:"url"`
		Method  string            `json:"method"`
		Headers map[string]string `json:"headers"`
	} `json:"request"`
	ResourceType string `json:"resourceType"`
}

// onPaused decides a paused request. It runs on the read goroutine, so the answer
// is sent from another one. p, if not nil, is the page the request is for: it
// learns what was refused and counts the request as in flight until answered.
func (b *Browser) onPaused(c *cdp.Client, params json.RawMessage, p *Page) {
	var ev PausedRequest
	if err := json.Unmarshal(params, &ev); err != nil {
		return
	}
	verdict := b.policy.Check(ev.Request.URL)
	if p != nil {
		if verdict != nil {
			p.logs.Refuse(ev.Request.URL, verdict.Error())
		}
		p.paused.Add(1)
	}
	go func() {
		if p != nil {
			defer p.paused.Add(-1)
		}
		ctx, cancel := context.WithTimeout(context.Background(), cdpCallTimeout)
		defer cancel()
		var err error
		routed := false
		if verdict == nil && p != nil {
			// A feature's answer (routes), after the origin rules.
			routed, err = p.bc.answerPaused(ctx, c, &ev)
		}
		if verdict == nil && !routed {
			err = c.Fetch.ContinueRequest(ctx, fetch.NewContinueRequestArgs(ev.RequestID))
		} else if verdict != nil {
			slog.Info("request blocked by the origin policy", "url", ev.Request.URL, "type", ev.ResourceType, "why", verdict)
			err = c.Fetch.FailRequest(ctx, fetch.NewFailRequestArgs(ev.RequestID, network.ErrorReasonBlockedByClient))
		}
		if err != nil {
			slog.Debug("answer paused request", "url", ev.Request.URL, "err", err)
		}
	}()
}

// Policy returns the browser's origin policy (nil when none is set).
func (b *Browser) Policy() *origins.List { return b.policy }

// quietBeforeClose empties a tab that only the Fetch guard holds (origin rules,
// an attached browser's default context: no proxy of cdpmcp's) before it is
// closed. The guard stops seeing a closing tab's requests, and those it had
// paused go on: a beacon on pagehide, an EventSource reconnecting would get
// out. Loaded with about:blank first, with the guard's answers awaited, the
// page's last requests are refused; one that does not go is closed anyway.
func (p *Page) quietBeforeClose(ctx context.Context) {
	if p.bc.b.policy.Empty() || p.bc.b.proc != nil || p.bc.own || p.usable() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := p.navigate(ctx, "about:blank", "load"); err != nil {
		slog.Debug("empty the tab before closing it", "page", p.ID, "err", err)
	}
	_ = poll.Until(ctx, 20*time.Millisecond, func() (bool, error) { return p.paused.Load() == 0, nil })
}

// CheckNavigation says whether a client may open raw, before the browser is
// touched: a malformed URL is an *ArgError; one the rules refuse (local files,
// browser pages, origins outside the policy, script and data URLs in read-only
// mode) is an *Error with CodePermission whose Hint says what is allowed. The
// browser enforces the same policy on every request (above, and egress), so this
// is the early, clear answer, not the only line.
func CheckNavigation(policy *origins.List, raw string, readOnly bool) error {
	raw = strings.TrimSpace(raw)
	u, err := CheckURL(raw)
	if err != nil {
		return err
	}
	scheme := strings.ToLower(u.Scheme)
	if readOnly && (scheme == "javascript" || scheme == "data") {
		return &Error{Code: CodePermission, Msg: scheme + ": URLs are refused in read-only mode",
			Hint: "read-only mode opens web pages (http, https) only"}
	}
	if err := policy.Check(raw); err != nil {
		return &Error{Code: CodePermission, Msg: "blocked: " + err.Error(),
			Hint: "this server only opens the allowed origins; stay on them"}
	}
	return nil
}
