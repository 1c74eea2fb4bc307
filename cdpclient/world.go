package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// worldName names cdpmcp's isolated world: it shares the DOM with the page but
// not its JavaScript globals, so page scripts can neither see nor break the page
// model (js/snapshot.js) that lives there.
const worldName = "__cdpmcp"

// frameKey names a frame: the session that hosts it ("" for the page's own
// session) and its frame id.
type frameKey struct {
	session string
	frame   page.FrameID
}

// worldIn is a frame's isolated world, with the client of the session hosting it.
type worldIn struct {
	c   *cdp.Client
	f   *frameSession // nil for the page's own session
	id  runtime.ExecutionContextID
	grp string // object group of the running operation
}

// onWorldEvent records isolated worlds as their contexts come and go, for the
// page's session (session "") or a child's.
func (p *Page) onWorldEvent(session, method string, params json.RawMessage) {
	switch method {
	case "Runtime.executionContextCreated":
		var ev runtime.ExecutionContextCreatedReply
		if json.Unmarshal(params, &ev) != nil || ev.Context.Name != worldName {
			return
		}
		var aux auxData
		if json.Unmarshal(ev.Context.AuxData, &aux) != nil {
			return
		}
		p.mu.Lock()
		p.isolated[frameKey{session, aux.FrameID}] = ev.Context.ID
		p.worldIDs[ev.Context.UniqueID] = ev.Context.ID
		p.mu.Unlock()
	case "Runtime.executionContextDestroyed":
		var ev struct {
			UniqueID string `json:"executionContextUniqueId"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		p.mu.Lock()
		if id, ok := p.worldIDs[ev.UniqueID]; ok {
			delete(p.worldIDs, ev.UniqueID)
			for k, v := range p.isolated {
				if k.session == session && v == id {
					delete(p.isolated, k)
					delete(p.installed, id)
				}
			}
		}
		p.mu.Unlock()
	case "Runtime.executionContextsCleared":
		p.mu.Lock()
		p.forgetWorldsLocked(session)
		p.mu.Unlock()
	}
}

// forgetWorldsLocked drops the isolated worlds known in a session. p.mu is held.
func (p *Page) forgetWorldsLocked(session string) {
	for k, id := range p.isolated {
		if k.session == session {
			delete(p.isolated, k)
			delete(p.installed, id)
		}
	}
}

// auxData is the part of an execution context's auxData that names its frame.
type auxData struct {
	FrameID page.FrameID `json:"frameId"`
}

// world returns the isolated world of a frame with the page model installed,
// creating the world first if the frame has none yet.
func (p *Page) world(ctx context.Context, key frameKey) (*worldIn, error) {
	w := &worldIn{c: p.c, grp: p.group()}
	if key.session != "" {
		p.mu.Lock()
		w.f = p.frames[key.session]
		p.mu.Unlock()
		if w.f == nil {
			return nil, &Error{Code: CodeNotFound, Msg: "the frame is gone", Hint: "take a new snapshot"}
		}
		w.c = w.f.c
	}
	p.mu.Lock()
	id, ok := p.isolated[key]
	p.mu.Unlock()
	if !ok {
		r, err := w.c.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(key.frame).SetWorldName(worldName))
		if err != nil && strings.Contains(err.Error(), "No frame for given id") {
			// The frame was removed or replaced since its refs were handed out.
			return nil, &Error{Code: CodeNotFound, Msg: "the frame is gone", Hint: "take a new snapshot", Err: err}
		}
		if err != nil {
			return nil, fmt.Errorf("create isolated world: %w", err)
		}
		id = r.ExecutionContextID
		p.mu.Lock()
		p.isolated[key] = id
		p.mu.Unlock()
	}
	w.id = id
	p.mu.Lock()
	installed := p.installed[id]
	if w.f != nil {
		p.touched[w.f] = true
	}
	p.mu.Unlock()
	if !installed {
		// Documents created after we attached have it already (see
		// installPageModel); older ones get it now. Asking first keeps the
		// installer's 50 kB out of the common case, where the browser would
		// parse it only to find the model there.
		r, err := w.eval(ctx, "globalThis.__cdpmcp && __cdpmcp.watch ? 'ready' : ''", true)
		if err == nil && string(r.Value) != `"ready"` {
			_, err = w.eval(ctx, "("+installSource+")()", true)
		}
		if err != nil {
			p.forgetWorld(key)
			return nil, err
		}
		p.mu.Lock()
		p.installed[id] = true
		p.mu.Unlock()
	}
	return w, nil
}

func (p *Page) forgetWorld(key frameKey) {
	p.mu.Lock()
	if id, ok := p.isolated[key]; ok {
		delete(p.installed, id)
	}
	delete(p.isolated, key)
	p.mu.Unlock()
}

// eval evaluates expr in the world. A thrown exception is an *Error (JS_ERROR).
func (w *worldIn) eval(ctx context.Context, expr string, byValue bool) (*runtime.RemoteObject, error) {
	r, err := w.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetContextID(w.id).
		SetReturnByValue(byValue).SetObjectGroup(w.grp).SetAwaitPromise(true))
	if err != nil {
		return nil, fmt.Errorf("evaluate in isolated world: %w", err)
	}
	if r.ExceptionDetails != nil {
		return nil, &Error{Code: CodeJSError, Msg: "page model: " + ExceptionText(r.ExceptionDetails)}
	}
	return &r.Result, nil
}

// withWorld runs fn in a frame's isolated world, retrying once with a fresh world
// when the frame navigated and the old one vanished under it.
func (p *Page) withWorld(ctx context.Context, key frameKey, fn func(*worldIn) error) error {
	for attempt := 0; ; attempt++ {
		w, err := p.world(ctx, key)
		if err == nil {
			err = fn(w)
		}
		if err == nil || attempt > 0 || !worldGone(err) {
			return err
		}
		p.forgetWorld(key)
	}
}

func worldGone(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Cannot find context") || strings.Contains(s, "__cdpmcp is not defined") ||
		strings.Contains(s, "context was destroyed") || strings.Contains(s, "Cannot read properties of undefined")
}

// installSource is the page model's installer: js/snapshot.js (with js/walk.js,
// js/shown.js, js/lines.js, js/reading.js, js/targets.js and js/view.js) and
// js/watch.js (with js/watchparts.js).
var installSource = jsWith("bootstrap", "install", "installWatch", "query", "lineHelpers", "readingHelpers", "targetHelpers", "walker", "viewHelpers", "shownRules", "watchParts")

// installPageModel makes every new document of a session get cdpmcp's isolated
// world with the page model installed, while the document is created, so a
// snapshot never waits for either.
func installPageModel(ctx context.Context, c *cdp.Client) error {
	if err := c.Runtime.AddBinding(ctx, runtime.NewAddBindingArgs(busy.ProgressBinding).SetExecutionContextName(worldName)); err != nil {
		return err
	}
	_, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx,
		page.NewAddScriptToEvaluateOnNewDocumentArgs("("+installSource+")()").SetWorldName(worldName))
	return err
}
