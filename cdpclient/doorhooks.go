package cdpclient

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/cdpmcp/cdpmcp/cdpclient/featureslots"
	"github.com/mafredri/cdp"
)

// WorldName is the name of cdpmcp's isolated world, where the page model
// lives: a feature's bindings and new-document scripts that must not be seen
// (or broken) by the page's own code go in it.
const WorldName = worldName

// Slot returns the value a feature keeps on the page under key (a value of
// an unexported type of the feature's), made by make on first use. It lives
// as long as the page: what a tab emulates, for instance.
func (d Door) Slot(key any, make func() any) any {
	return d.p.slots.Get(key, make)
}

// Sessions are the page's sessions that host documents: the page's own
// first, then each out-of-process frame's. A feature sends what applies per
// document (media, locale, a new-document script) to each.
func (d Door) Sessions() []Session {
	p := d.p
	out := []Session{{s: p.s, c: p.c}}
	for _, f := range p.children.iframes() {
		out = append(out, Session{s: f.s, c: f.c, id: f.s.id})
	}
	return out
}

// Session is one protocol session of a page (Door.Sessions).
type Session struct {
	s  *session
	c  *cdp.Client
	id string
}

// ID names the session as a PageListener does: "" for the page's own, else
// the out-of-process frame's session id.
func (s Session) ID() string { return s.id }

// Client is the session's protocol client: the same client the session's
// set-up calls got (ContextHook.SessionSetup).
func (s Session) Client() *cdp.Client { return s.c }

// Call sends a method with raw params to the session and returns the raw
// result; a protocol error is an *Error with the browser's message, as for
// Page.Raw. It takes no lock: call it inside Door.Run.
func (s Session) Call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return rawCall(ctx, s.s.conn, method, params)
}

// ContextDoor is a feature package's door on a browser context (see Door):
// a slot for its state there, calls of its own in the set-up of each new
// document session of the context, the bindings it listens to, and the
// requests it answers (ContextHook, Hook; Intercept: intercept.go).
type ContextDoor struct{ bc *BrowserContext }

// Door opens the context's door for a feature package.
func (bc *BrowserContext) Door() ContextDoor { return ContextDoor{bc} }

// contextHooks is what features hang on a context (ContextDoor).
type contextHooks struct {
	slots featureslots.Slots // its own lock

	mu       sync.Mutex
	setup    []func(ctx context.Context, c *cdp.Client) []func() error
	raw      []string // methods every new document session is sent (SessionCalls)
	bindings map[string]func(payload string)
	// intercept: a feature asked for every request to be paused
	// (Intercept); paused its answers (ContextHook.Paused).
	intercept bool
	paused    []func(ctx context.Context, c *cdp.Client, r *PausedRequest) (bool, error)
	closed    []func() // what features do once the context is closed (doordl.go)
}

// Slot returns the value a feature keeps on the context under key, made by
// make on first use (make must not use the door). It lives as long as the
// context: a storage state still to seed, for instance.
func (d ContextDoor) Slot(key any, make func() any) any {
	return d.bc.hooks.slots.Get(key, make)
}

// ContextHook is what a feature hangs on a browser context
// (ContextDoor.Hook); a zero field adds nothing.
type ContextHook struct {
	// SessionSetup adds calls to the set-up of every document session the
	// context attaches from now on (a new tab's, an out-of-process
	// frame's): it returns them for the session's client c. They are sent
	// in order, one request each, after the core's own and before the
	// target runs, so a new-document script added there runs before the
	// page's scripts.
	SessionSetup func(ctx context.Context, c *cdp.Client) []func() error
	// SessionCalls are methods without parameters that the typed client
	// lacks (a new domain's enable), added to the same set-up after the
	// SessionSetup calls. Their errors are ignored: a browser without the
	// method goes on as before.
	SessionCalls []string
	// OnBinding is called with the payload whenever a page of the context
	// calls the binding named Binding (one the feature added in
	// WorldName). It runs on the connection's read goroutine: it must not
	// block or call the browser.
	Binding   string
	OnBinding func(payload string)
	// Paused is an answer for the context's paused requests that the
	// origin rules let through: it sends its own reply
	// (Fetch.fulfillRequest, failRequest or continueRequest on c) and
	// reports true, or reports false to leave the request to the next
	// answer and, last, to go on unchanged. It runs off the read
	// goroutine, bounded by ctx. Requests are paused while origin rules
	// are set or a feature asked for it (ContextDoor.Intercept).
	Paused func(ctx context.Context, c *cdp.Client, r *PausedRequest) (bool, error)
}

// Hook hangs a feature's hook on the context, from now on.
func (d ContextDoor) Hook(hook ContextHook) {
	h := &d.bc.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	if hook.SessionSetup != nil {
		h.setup = append(h.setup, hook.SessionSetup)
	}
	h.raw = append(h.raw, hook.SessionCalls...)
	if hook.OnBinding != nil {
		if h.bindings == nil {
			h.bindings = map[string]func(string){}
		}
		h.bindings[hook.Binding] = hook.OnBinding
	}
	if hook.Paused != nil {
		h.paused = append(h.paused, hook.Paused)
	}
}

// sessionSetup is the features' set-up calls for a new document session s.
func (bc *BrowserContext) sessionSetup(ctx context.Context, s *session, c *cdp.Client) []func() error {
	bc.hooks.mu.Lock()
	setup := append([]func(context.Context, *cdp.Client) []func() error(nil), bc.hooks.setup...)
	raw := append([]string(nil), bc.hooks.raw...)
	bc.hooks.mu.Unlock()
	var out []func() error
	for _, fn := range setup {
		out = append(out, fn(ctx, c)...)
	}
	for _, method := range raw {
		out = append(out, func() error {
			_, _ = rawCall(ctx, s.conn, method, nil)
			return nil
		})
	}
	return out
}

// onBinding hands a Runtime.bindingCalled event to the feature listening to
// its binding, if any.
func (bc *BrowserContext) onBinding(params json.RawMessage) {
	var ev struct {
		Name    string `json:"name"`
		Payload string `json:"payload"`
	}
	if json.Unmarshal(params, &ev) != nil {
		return
	}
	bc.hooks.mu.Lock()
	fn := bc.hooks.bindings[ev.Name]
	bc.hooks.mu.Unlock()
	if fn != nil {
		fn(ev.Payload)
	}
}
