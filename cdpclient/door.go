package cdpclient

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/runtime"
)

// CallTimeout bounds one protocol call made after the caller's context ended
// (a clean-up: closing a stream, ending a trace).
const CallTimeout = cdpCallTimeout

// Door is how a feature package built on cdpclient reaches a page below its
// public API, the way chromedp hands its actions an executor. A feature
// package (cdpclient/audit, state, network, live, pagefacts, capture, input,
// find, content, eval, passthrough, wait, pagemodel) imports cdpclient's
// exported API and this door, never cdpclient's internals; cdpclient never
// imports a feature.
//
// Through the door a feature may:
//   - run an operation on the page under the page's rules (its action lock,
//     the dialog gate, the crash guard) with the page session's protocol
//     client: Door.Do, Door.DoLong (no busy watchdog, for a long read of our
//     own), Door.Navigation and, inside one, Door.Load;
//   - work in the main frame's isolated world, where the page model lives:
//     Door.World hands a World (its frame, client, context id and object
//     group, Eval, HandOutRefs);
//   - read the page's logs from a mark: Door.Mark, Network, Console, Pending,
//     and tell the main frame's documents: Door.MainFrame, MainDocument;
//   - send its own requests through the browser's egress proxy, so the
//     origin rules hold for them too: Browser.EgressProxy;
//   - keep its own state on the page (Door.Slot) and send calls to each
//     session hosting the page's documents (Door.Sessions);
//   - on a browser context (BrowserContext.Door, doorhooks.go): keep its
//     state there, add calls to the set-up of each new document session
//     (typed, or raw methods the typed client lacks: OnSessionCalls),
//     listen to its bindings in cdpmcp's world (WorldName) and answer the
//     requests the origin rules let through (Intercept, OnPaused);
//   - walk the page's frames as the page model does (doormodel.go): a
//     frame's world (Door.InFrame), the frame an <iframe> shows
//     (World.Child), the number and frame of a ref (Door.RefFrame);
//   - picture the page (doorcapture.go): where an element is
//     (Door.ElementClip) and where a world's frame is (World.Origin);
//   - hear every event of each page's sessions from its first one
//     (doornet.go: OnPageEvents, in the feature's init) and call a session
//     a listener named (Door.Session);
//   - run an input action of its own through the action-and-observe cycle
//     (doorinput.go): Door.Act, with its element resolved and handed over
//     (Element.Actionable, ClickablePoint, Click, Call, Related, Client …),
//     and what input needs on the way: Dispatched, ToFront, NavMark,
//     Document, DescribeAt, OpenFileChooser;
//   - run beside the actions, without their lock (doorlive.go): pass a
//     person's input on (Door.Input), read guarded (Door.Guarded), and use
//     the page session's client for a stream of its own (Door.Client,
//     Usable, ViewportSize);
//   - read the page as the find and getContent tools do (doorread.go): the
//     worlds of the frames that hold refs (Door.RefWorlds), an element's
//     box as it is (Element.Box), a selector the page refused as not CSS
//     (SelectorError), and a page function of its own called in cdpmcp's
//     world (Door.CallInWorld);
//   - run the caller's own script (doorread.go, for evaluate): Door.Script,
//     under the page's rules without the busy watchdog, stopping a script
//     still running near the call's deadline (*busy.ScriptTimeout); the
//     operation's object group (Door.Group); an element in its frame's main
//     world (Element.MainWorld) and its NOT_FOUND once gone (Element.Gone);
//   - on a browser context, for the cdp passthrough's confinement
//     (doorread.go): its id (ContextDoor.ID) and which targets it owns
//     (ContextDoor.Owns, OwnsTarget: asked of the browser);
//   - take part in the core's cycles (doordl.go: AddHooks, from its init):
//     set up each browser context and act at its close, hear the browser's
//     own events, and watch each action with an Observer that adds to its
//     answer and may account for a navigation the browser aborted (a
//     download); find the page of a frame (Browser.PageOfFrame), the
//     browser's Options and Profile; run a wait through the cycle (Door.Wait);
//   - word a thrown exception as cdpclient does (ExceptionText) and bound a
//     clean-up call made after its context ended (CallTimeout).
type Door struct{ p *Page }

// Door opens the page's door for a feature package.
func (p *Page) Door() Door { return Door{p} }

// LogDoor is the page's logs as the door gives them (Door.Logs): its
// requests and console messages from a mark on, and which requests were the
// main frame's documents.
type LogDoor struct{ p *Page }

// Logs is the door's part for the page's logs.
func (d Door) Logs() LogDoor { return LogDoor{d.p} }

// MainDocument reports whether a request is for a document of the main frame.
func (l LogDoor) MainDocument(e pagelog.NetworkEntry) bool { return l.p.mainDocument(e) }

// Mark is the page's log position now, for Network, Console and Pending.
func (l LogDoor) Mark() int { return l.p.logs.Mark() }

// Network is the page's requests logged after mark (0: all it keeps).
func (l LogDoor) Network(mark int) []pagelog.NetworkEntry { return l.p.logs.Network(mark) }

// Console is the page's console messages logged after mark.
func (l LogDoor) Console(mark int) []pagelog.ConsoleEntry { return l.p.logs.Console(mark) }

// Pending counts the requests started after mark that are still open.
func (l LogDoor) Pending(mark int) int { return l.p.logs.Pending(mark) }

// World runs fn in the main frame's isolated world, with the page model
// installed, retrying once with a fresh world when the frame navigated and the
// old one vanished under it. Call it inside Door.Run.
func (d Door) World(ctx context.Context, fn func(*World) error) error {
	return d.Frames().In(ctx, Frame{}, fn)
}

// World is a frame's isolated world during one operation.
type World struct {
	p   *Page
	w   *worldIn
	key frameKey
}

// Frame is the id of the world's frame.
func (w *World) Frame() string { return string(w.key.frame) }

// Client is the client of the session hosting the world.
func (w *World) Client() *cdp.Client { return w.w.c }

// ID is the world's execution context.
func (w *World) ID() runtime.ExecutionContextID { return w.w.id }

// Group is the object group of the running operation: objects made in it
// are released when the operation ends.
func (w *World) Group() string { return w.w.grp }

// Eval evaluates expr in the world. A thrown exception is an *Error (JS_ERROR).
func (w *World) Eval(ctx context.Context, expr string, byValue bool) (*runtime.RemoteObject, error) {
	return w.w.eval(ctx, expr, byValue)
}

// HandOutRefs runs fn, a call of the page model that hands out refs numbered
// after base (__cdpmcp.assign with {last: base}), and records the refs up to
// the last it returns as the world's frame's, so that later calls find their
// elements.
func (w *World) HandOutRefs(fn func(base int) (last int, err error)) error {
	base := w.p.refs.base()
	last, err := fn(base)
	if err != nil {
		return err
	}
	w.p.refs.record(w.key, base, last)
	return nil
}

// EgressProxy is the URL of the proxy the browser's requests go through when
// origin rules are set ("" without): requests a feature makes itself (link
// checks) go through it, so the same rules hold for them.
func (b *Browser) EgressProxy() string {
	if b.egress == nil {
		return ""
	}
	return b.egress.URL()
}

// EgressRefused counts the connections the egress proxy refused (0 without
// origin rules).
func (b *Browser) EgressRefused() int64 { return b.egress.Refused() }

// ReadInWorld evaluates expr, a long read of the caller's own, in cdpmcp's
// isolated world of p's main frame (where the page's own scripts neither run
// nor lie) under ModeLongRead, and decodes its value, by JSON, into out. It
// is how a package outside cdpclient, which may not open the door (see
// door_fence_test.go), reads a page as the page model sees it: the corpus
// tests count what a person can see with it.
func ReadInWorld(ctx context.Context, p *Page, expr string, out any) error {
	d := p.Door()
	_, err := d.Run(ctx, ModeLongRead, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *World) error {
			r, err := w.Eval(ctx, expr, true)
			if err != nil {
				return err
			}
			return json.Unmarshal(r.Value, out)
		})
	})
	return err
}
