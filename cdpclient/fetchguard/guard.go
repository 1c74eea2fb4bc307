// Package fetchguard is the one interception of a browser's requests
// (the Fetch domain): while origin rules are set it pauses every request of
// every session it is set up on and continues or fails each one
// (net::ERR_BLOCKED_BY_CLIENT) before it leaves the browser, so redirects,
// meta refreshes, form posts, fetch/XHR and subresources are covered alike;
// with proxy credentials it answers the proxy's challenges (proxyauth.go). A
// request the rules let through goes to the page's answers (routes) first.
// WebSocket handshakes do not pass through Fetch; see docs/security.md.
//
// It is a library the core (cdpclient) imports: the core hands it each
// session's client and events, and, for a page's requests, a Page to tell;
// it never imports cdpclient.
package fetchguard

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/fetch"
	"github.com/mafredri/cdp/protocol/network"
)

// callTimeout bounds an answer to a paused request or a challenge: it is
// sent outside any tool call.
const callTimeout = 10 * time.Second

// Guard is a browser's interception: its origin rules and the proxy whose
// challenges it answers.
type Guard struct {
	policy *origins.List
	proxy  *browserproc.Proxy // nil without credentials
	// answered are the requests whose proxy challenge was answered.
	answered authAnswered
}

// New is the guard of a browser with origin rules policy (nil or empty:
// none) behind proxy (nil: none; its credentials, if any, are answered).
func New(policy *origins.List, proxy *browserproc.Proxy) *Guard {
	g := &Guard{policy: policy}
	if proxy.HasCredentials() {
		g.proxy = proxy
	}
	return g
}

// Always reports whether every request of every session is paused for as
// long as the browser is connected: with origin rules (the guard) or proxy
// credentials to answer. Otherwise interception is on only while a feature
// asks for it (cdpclient.ContextDoor.Intercept).
func (g *Guard) Always() bool {
	return !g.policy.Empty() || g.proxy != nil
}

// Intercept is the one way cdpmcp enables Fetch: every request, at the
// request stage (the guard's patterns), and the proxy's challenges too when
// there are credentials to answer them with.
func (g *Guard) Intercept(ctx context.Context, c *cdp.Client) error {
	args := fetch.NewEnableArgs().SetPatterns([]fetch.RequestPattern{{}})
	if g.proxy != nil {
		args.SetHandleAuthRequests(true)
	}
	return c.Fetch.Enable(ctx, args)
}

// SetUp turns interception on for a new session when it is always on
// (Always).
func (g *Guard) SetUp(ctx context.Context, c *cdp.Client) error {
	if !g.Always() {
		return nil
	}
	return g.Intercept(ctx, c)
}

// PausedRequest is the part of Fetch.requestPaused the guard reads, and hands
// to a feature that answers requests (cdpclient.ContextHook.Paused).
type PausedRequest struct {
	RequestID fetch.RequestID `json:"requestId"`
	Request   struct {
		URL     string            `json:"url"`
		Method  string            `json:"method"`
		Headers map[string]string `json:"headers"`
	} `json:"request"`
	ResourceType string `json:"resourceType"`
}

// Page is the page a paused request is for.
type Page interface {
	// Refused learns that the rules refused url, and why.
	Refused(url, why string)
	// Pending counts a request as waiting for the guard's answer (+1) or
	// answered (-1).
	Pending(delta int32)
	// Answer hands a request the rules let through to the page's answers
	// (routes); it reports false when none answered.
	Answer(ctx context.Context, c *cdp.Client, r *PausedRequest) (bool, error)
}

// OnPaused decides a paused request of session c. It runs on the read
// goroutine, so the answer is sent from another one. p, if not nil, is the
// page the request is for: it learns what was refused and counts the
// request as in flight until answered.
func (g *Guard) OnPaused(c *cdp.Client, params json.RawMessage, p Page) {
	var ev PausedRequest
	if err := json.Unmarshal(params, &ev); err != nil {
		return
	}
	verdict := g.policy.Check(ev.Request.URL)
	if p != nil {
		if verdict != nil {
			p.Refused(ev.Request.URL, verdict.Error())
		}
		p.Pending(1)
	}
	go func() {
		if p != nil {
			defer p.Pending(-1)
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		var err error
		routed := false
		if verdict == nil && p != nil {
			// A feature's answer (routes), after the origin rules.
			routed, err = p.Answer(ctx, c, &ev)
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
