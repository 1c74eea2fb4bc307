package cdpclient

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/fetch"
)

// Routes answer a session's requests by URL pattern: with a made-up response
// (fulfill), a network error (abort), or sent on with headers changed
// (modify). They ride on the origin guard's interception (guard.go): one
// Fetch.enable for every request on every document session, never a narrower
// second one, and the origin rules are checked first, so a route cannot reach
// what the rules refuse. Without origin rules, interception is on only while
// the context has routes.

// Route is one rule.
type Route struct {
	// Pattern is a URL glob: * matches any run of characters, ? one.
	Pattern string
	// Action is fulfill, abort or modify.
	Action string
	// Status, ContentType, Body and Headers make a fulfilled response;
	// Headers set (and RemoveHeaders drop) request headers for modify.
	Status        int
	ContentType   string
	Body          string
	Headers       map[string]string
	RemoveHeaders []string
	// Hits counts the requests it answered.
	Hits int

	re *regexp.Regexp
}

// routeTable is a context's routes, guarded by its own lock.
type routeTable struct {
	mu   sync.Mutex
	list []*Route
}

// globRegexp turns a URL glob into an anchored regular expression.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// AddRoute adds a route to the context (replacing one with the same
// pattern), turning interception on for its tabs if it was off.
func (bc *BrowserContext) AddRoute(ctx context.Context, r Route) error {
	switch r.Action {
	case "fulfill", "abort", "modify":
	default:
		return argError("use fulfill, abort or modify", "route action %q is not known", r.Action)
	}
	if strings.TrimSpace(r.Pattern) == "" {
		return argError(`give a URL pattern, e.g. "*/api/users*"`, "a route needs a pattern")
	}
	if r.Status == 0 {
		r.Status = 200
	}
	if r.Status < 100 || r.Status > 599 {
		return argError("give an HTTP status of 100 to 599", "status %d is not an HTTP status", r.Status)
	}
	re, err := globRegexp(r.Pattern)
	if err != nil {
		return argError(`use * for any characters, e.g. "*/api/*"`, "pattern %q: %v", r.Pattern, err)
	}
	r.re = re
	bc.routes.mu.Lock()
	was := len(bc.routes.list)
	bc.routes.list = slicesDeleteRoute(bc.routes.list, r.Pattern)
	bc.routes.list = append(bc.routes.list, &r)
	bc.routes.mu.Unlock()
	if was == 0 {
		return bc.interceptAll(ctx, true)
	}
	return nil
}

// RemoveRoute removes the route with the pattern ("" removes all) and
// reports how many went.
func (bc *BrowserContext) RemoveRoute(ctx context.Context, pattern string) (int, error) {
	bc.routes.mu.Lock()
	n := len(bc.routes.list)
	if pattern == "" {
		bc.routes.list = nil
	} else {
		bc.routes.list = slicesDeleteRoute(bc.routes.list, pattern)
	}
	removed, left := n-len(bc.routes.list), len(bc.routes.list)
	bc.routes.mu.Unlock()
	if removed > 0 && left == 0 {
		return removed, bc.interceptAll(ctx, false)
	}
	return removed, nil
}

func slicesDeleteRoute(list []*Route, pattern string) []*Route {
	out := list[:0]
	for _, r := range list {
		if r.Pattern != pattern {
			out = append(out, r)
		}
	}
	return out
}

// Routes lists the context's routes, in the order they were added.
func (bc *BrowserContext) Routes() []Route {
	bc.routes.mu.Lock()
	defer bc.routes.mu.Unlock()
	out := make([]Route, len(bc.routes.list))
	for i, r := range bc.routes.list {
		out[i] = *r
	}
	return out
}

// routing reports whether the context has routes.
func (bc *BrowserContext) routing() bool {
	bc.routes.mu.Lock()
	defer bc.routes.mu.Unlock()
	return len(bc.routes.list) > 0
}

// interceptAll turns interception on (or off) on every document session of
// the context's tabs; with origin rules it is always on and stays so.
func (bc *BrowserContext) interceptAll(ctx context.Context, on bool) error {
	if !bc.b.policy.Empty() {
		return nil
	}
	for _, p := range bc.Pages() {
		for _, c := range p.documentSessions() {
			var err error
			if on {
				err = interceptEverything(ctx, c)
			} else {
				err = c.Fetch.Disable(ctx)
			}
			if err != nil {
				return fmt.Errorf("request interception: %w", err)
			}
		}
	}
	return nil
}

// interceptEverything is the one way cdpmcp enables Fetch: every request, at
// the request stage (the guard's patterns).
func interceptEverything(ctx context.Context, c *cdp.Client) error {
	return c.Fetch.Enable(ctx, fetch.NewEnableArgs().SetPatterns([]fetch.RequestPattern{{}}))
}

// routeSetup is the call that turns interception on for a new document
// session of a context with routes (the guard does it when origin rules are
// set); nil otherwise.
func (bc *BrowserContext) routeSetup(ctx context.Context, c *cdp.Client) []func() error {
	if !bc.b.policy.Empty() || !bc.routing() {
		return nil
	}
	return []func() error{func() error { return interceptEverything(ctx, c) }}
}

// routed answers a paused request the origin rules let through with the
// first route matching its URL; it reports false when none matched.
func (bc *BrowserContext) routed(ctx context.Context, c *cdp.Client, ev *pausedRequest) (bool, error) {
	bc.routes.mu.Lock()
	var r *Route
	for _, x := range bc.routes.list {
		if x.re.MatchString(ev.Request.URL) {
			x.Hits++
			c := *x
			r = &c
			break
		}
	}
	bc.routes.mu.Unlock()
	if r == nil {
		return false, nil
	}
	switch r.Action {
	case "abort":
		return true, c.Fetch.FailRequest(ctx, fetch.NewFailRequestArgs(ev.RequestID, "Failed"))
	case "fulfill":
		typ := r.ContentType
		if typ == "" {
			typ = "text/plain; charset=utf-8"
		}
		headers := []fetch.HeaderEntry{{Name: "Content-Type", Value: typ}}
		for _, k := range sortedKeys(r.Headers) {
			headers = append(headers, fetch.HeaderEntry{Name: k, Value: r.Headers[k]})
		}
		args := fetch.NewFulfillRequestArgs(ev.RequestID, r.Status).SetResponseHeaders(headers).
			SetBody([]byte(r.Body)) // the library sends []byte as base64
		return true, c.Fetch.FulfillRequest(ctx, args)
	}
	// modify: send it on with the request headers changed.
	set := map[string]string{}
	for k, v := range ev.Request.Headers {
		set[strings.ToLower(k)] = k + "\x00" + v
	}
	for _, k := range r.RemoveHeaders {
		delete(set, strings.ToLower(k))
	}
	for k, v := range r.Headers {
		set[strings.ToLower(k)] = k + "\x00" + v
	}
	var headers []fetch.HeaderEntry
	for _, k := range sortedKeys(set) {
		name, value, _ := strings.Cut(set[k], "\x00")
		headers = append(headers, fetch.HeaderEntry{Name: name, Value: value})
	}
	return true, c.Fetch.ContinueRequest(ctx, fetch.NewContinueRequestArgs(ev.RequestID).SetHeaders(headers))
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
