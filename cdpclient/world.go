package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/cdpmcp/cdpmcp/cdpclient/worldmap"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
)

// worldName names cdpmcp's isolated world: it shares the DOM with the page but
// not its JavaScript globals, so page scripts can neither see nor break the page
// model (js/snapshot.js) that lives there.
const worldName = "__cdpmcp"

// frameKey names a frame: the session that hosts it ("" for the page's own
// session) and its frame id (cdpclient/worldmap).
type frameKey = worldmap.FrameKey

// worldIn is a frame's isolated world, with the client of the session hosting it.
type worldIn struct {
	c   *cdp.Client
	f   *frameSession // nil for the page's own session
	id  runtime.ExecutionContextID
	grp string // object group of the running operation
}

// world returns the isolated world of a frame with the page model installed,
// creating the world first if the frame has none yet.
func (p *Page) world(ctx context.Context, key frameKey) (*worldIn, error) {
	w := &worldIn{c: p.c, grp: p.actLock.Group()}
	if key.Session != "" {
		w.f = p.children.get(key.Session)
		if w.f == nil {
			return nil, &Error{Code: CodeNotFound, Msg: "the frame is gone", Hint: "take a new snapshot"}
		}
		w.c = w.f.c
	}
	id, ok := p.worlds.Lookup(key)
	if !ok {
		r, err := w.c.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(key.Frame).SetWorldName(worldName))
		if err != nil && strings.Contains(err.Error(), "No frame for given id") {
			// The frame was removed or replaced since its refs were handed out.
			return nil, &Error{Code: CodeNotFound, Msg: "the frame is gone", Hint: "take a new snapshot", Err: err}
		}
		if err != nil {
			return nil, fmt.Errorf("create isolated world: %w", err)
		}
		id = r.ExecutionContextID
		p.worlds.Add(key, id)
	}
	w.id = id
	if w.f != nil {
		p.actLock.Touch(w.f)
	}
	if !p.worlds.HasModel(id, false) {
		// Documents created after we attached have it already (see
		// installPageModel); older ones get it now. Asking first keeps the
		// installer's 50 kB out of the common case, where the browser would
		// parse it only to find the model there.
		r, err := w.eval(ctx, "globalThis.__cdpmcp && __cdpmcp.watch ? 'ready' : ''", true)
		if err == nil && string(r.Value) != `"ready"` {
			_, err = w.eval(ctx, "("+installSource+")()", true)
		}
		if err != nil {
			p.worlds.Forget(key)
			return nil, err
		}
		p.worlds.HasModel(id, true)
	}
	return w, nil
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

// evalPlain evaluates expr, which needs the frame's DOM but not the page
// model, in the frame's isolated world and answers its value. A world whose
// model is not known to be installed yet (a new document's, right after its
// load) is asked whether it is in the same round trip, where world would ask
// in one of its own first: the read a navigation's feedback makes costs the
// renderer one trip.
func (p *Page) evalPlain(ctx context.Context, key frameKey, expr string) (json.RawMessage, error) {
	id, ok := p.worlds.Lookup(key)
	if !ok || key.Session != "" || p.worlds.HasModel(id, false) {
		var v json.RawMessage
		err := p.withWorld(ctx, key, func(w *worldIn) error {
			r, err := w.eval(ctx, expr, true)
			if err == nil {
				v = r.Value
			}
			return err
		})
		return v, err
	}
	w := &worldIn{c: p.c, id: id, grp: p.actLock.Group()}
	r, err := w.eval(ctx, "[globalThis.__cdpmcp && __cdpmcp.watch ? 1 : 0, ("+expr+")]", true)
	if err != nil && worldGone(err) {
		p.worlds.Forget(key)
		return p.evalPlain(ctx, key, expr) // not known now: withWorld's path
	}
	if err != nil {
		return nil, err
	}
	var pair []json.RawMessage
	if err := json.Unmarshal(r.Value, &pair); err != nil || len(pair) != 2 {
		return nil, fmt.Errorf("evaluate in isolated world: an answer of %d values", len(pair))
	}
	if string(pair[0]) == "1" {
		p.worlds.HasModel(id, true)
	}
	return pair[1], nil
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
		p.worlds.Forget(key)
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
var installSource = jsWith("bootstrap", "install", "installWatch", "installBetween", "query", "closedRoots", "lineHelpers", "readingHelpers", "targetHelpers", "walker", "viewHelpers", "shownRules", "watchParts")

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
