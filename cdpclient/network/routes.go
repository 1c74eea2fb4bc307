package network

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/fetch"
)

// Routes answer a session's requests by URL pattern: with a made-up response
// (fulfill), a network error (abort), or sent on with headers changed
// (modify). They ride on the core's interception (ContextDoor.Intercept and
// ContextHook.Paused): the origin rules are checked first, so a route cannot reach what
// the rules refuse. Without origin rules, interception is on only while the
// context has routes.

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

// routeTable is a context's routes, guarded by its own lock, in the
// context's slot (routesOf).
type routeTable struct {
	hooked sync.Once // the answer is registered
	mu     sync.Mutex
	list   []*Route
}

// routesKey is the key of a context's routeTable in its slot.
type routesKey struct{}

// routesOf is the context's routes, answering its paused requests from
// their first use.
func routesOf(bc *cdpclient.BrowserContext) *routeTable {
	d := bc.Door()
	t := d.Slot(routesKey{}, func() any { return &routeTable{} }).(*routeTable)
	t.hooked.Do(func() { d.Hook(cdpclient.ContextHook{Paused: t.routed}) })
	return t
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
func AddRoute(ctx context.Context, bc *cdpclient.BrowserContext, r Route) error {
	switch r.Action {
	case "fulfill", "abort", "modify":
	default:
		return cdpclient.ArgErrorf("use fulfill, abort or modify", "route action %q is not known", r.Action)
	}
	if strings.TrimSpace(r.Pattern) == "" {
		return cdpclient.ArgErrorf(`give a URL pattern, e.g. "*/api/users*"`, "a route needs a pattern")
	}
	if r.Status == 0 {
		r.Status = 200
	}
	if r.Status < 100 || r.Status > 599 {
		return cdpclient.ArgErrorf("give an HTTP status of 100 to 599", "status %d is not an HTTP status", r.Status)
	}
	re, err := globRegexp(r.Pattern)
	if err != nil {
		return cdpclient.ArgErrorf(`use * for any characters, e.g. "*/api/*"`, "pattern %q: %v", r.Pattern, err)
	}
	r.re = re
	t := routesOf(bc)
	t.mu.Lock()
	was := len(t.list)
	t.list = slicesDeleteRoute(t.list, r.Pattern)
	t.list = append(t.list, &r)
	t.mu.Unlock()
	if was == 0 {
		return bc.Door().Intercept(ctx, true)
	}
	return nil
}

// RemoveRoute removes the route with the pattern ("" removes all) and
// reports how many went.
func RemoveRoute(ctx context.Context, bc *cdpclient.BrowserContext, pattern string) (int, error) {
	t := routesOf(bc)
	t.mu.Lock()
	n := len(t.list)
	if pattern == "" {
		t.list = nil
	} else {
		t.list = slicesDeleteRoute(t.list, pattern)
	}
	removed, left := n-len(t.list), len(t.list)
	t.mu.Unlock()
	if removed > 0 && left == 0 {
		return removed, bc.Door().Intercept(ctx, false)
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
func Routes(bc *cdpclient.BrowserContext) []Route {
	t := routesOf(bc)
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Route, len(t.list))
	for i, r := range t.list {
		out[i] = *r
	}
	return out
}

// routed answers a paused request the origin rules let through with the
// first route matching its URL; it reports false when none matched.
func (t *routeTable) routed(ctx context.Context, c *cdp.Client, ev *cdpclient.PausedRequest) (bool, error) {
	t.mu.Lock()
	var r *Route
	for _, x := range t.list {
		if x.re.MatchString(ev.Request.URL) {
			x.Hits++
			c := *x
			r = &c
			break
		}
	}
	t.mu.Unlock()
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
