package fetchguard

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/fetch"
)

// Proxy credentials: Chromium takes a proxy's address on its command line
// but not its user and password, so the guard answers the proxy's
// challenges over DevTools. It rides on the one interception the origin
// rules and the routes use: with credentials set, every document and worker
// session pauses its requests (Intercept, with handleAuthRequests) and each
// Fetch.authRequired from the proxy is answered with the credentials once; a
// server's own challenge (a site's Basic auth) gets the browser's default
// answer, as without cdpmcp. The credentials are never logged, traced or
// shown to a page.

// authAnswered remembers the requests whose proxy challenge was answered
// with the credentials: a second challenge for the same request means the
// proxy refused them, and is cancelled rather than answered again without
// end.
type authAnswered struct {
	mu   sync.Mutex
	seen map[fetch.RequestID]bool
}

// first records id and reports whether it was not answered before.
func (a *authAnswered) first(id fetch.RequestID) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.seen[id] {
		return false
	}
	if a.seen == nil || len(a.seen) > 4096 {
		a.seen = map[fetch.RequestID]bool{} // a bound: answered requests are long done
	}
	a.seen[id] = true
	return true
}

// OnAuthRequired answers a Fetch.authRequired event of session c. It runs on
// the read goroutine, so the answer is sent from another one.
func (g *Guard) OnAuthRequired(c *cdp.Client, params json.RawMessage) {
	var ev fetch.AuthRequiredReply
	if err := json.Unmarshal(params, &ev); err != nil {
		return
	}
	proxy := g.proxy
	answer := fetch.AuthChallengeResponse{Response: "Default"}
	if proxy != nil && ev.AuthChallenge.Source != nil && *ev.AuthChallenge.Source == "Proxy" {
		if g.answered.first(ev.RequestID) {
			answer = fetch.AuthChallengeResponse{Response: "ProvideCredentials", Username: &proxy.User, Password: &proxy.Password}
		} else {
			answer.Response = "CancelAuth"
			slog.Warn("the proxy refused cdpmcp's credentials", "proxy", proxy.String(), "url", ev.Request.URL,
				"hint", "check --proxy-user and --proxy-password (or user:password@ in --proxy-server)")
		}
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if err := c.Fetch.ContinueWithAuth(ctx, fetch.NewContinueWithAuthArgs(ev.RequestID, answer)); err != nil {
			slog.Debug("answer an authentication challenge", "url", ev.Request.URL, "err", err)
		}
	}()
}
