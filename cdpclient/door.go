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
// find, content, eval, passthrough, wait, pagemodel, webmcp, clipboard,
// initscript) imports cdpclient's exported API and this door, never
// cdpclient's internals; cdpclient never imports a feature, and no package
// outside cdpclient/ opens the door (door_fence_test.go).
//
// Its ten methods:
//   - Run (doorrun.go): run an operation on the page under the rules its
//     Mode applies (the table at Mode: the action lock, the gate, the
//     guard, the busy watchdog, the action-and-observe cycle). Run's fn gets
//     the page session's protocol client: the one way to it. In ModeAct,
//     ActionElement, ReportValue and Dispatched serve the action.
//   - World, Frames (doormodel.go): the main frame's isolated world, where
//     the page model lives (a World: its frame, client, context id and
//     object group, Eval, HandOutRefs, Child, Origin); the frames: the main
//     frame's id, a load in it (inside ModeNavigate), its viewport, a
//     frame's world, the frame of a ref, the worlds that hold refs.
//   - CallInWorld, Group (doorread.go): a page function of the feature's
//     called in cdpmcp's world; the running operation's object group.
//   - Logs: the page's requests and console messages from a mark, and which
//     requests were the main frame's documents.
//   - Input (doorinput.go): what an input action needs of the page: the
//     tab to the front, whether it started to leave, the document, what is
//     under a point.
//   - Slot, Sessions, Session (doorhooks.go, doornet.go): the feature's
//     own state on the page; each session hosting the page's documents; the
//     session a PageListener named.
//
// Around it, for features: ContextDoor (a browser context's slot, hooks,
// interception and ownership); OnPageEvents (doornet.go) and AddHooks
// (doordl.go), from a feature's Register; Element's handle during an action
// (Actionable, ClickablePoint, Click, Call, Related, Box, Clip, …);
// Browser.EgressProxy for a feature's own requests; ExceptionText and
// CallTimeout.
type Door struct{ p *Page }

// Door opens the page's door for a feature package.
func (p *Page) Door() Door { return Door{p} }

// LogDoor is the page's logs as the door gives them (Door.Logs): its
// requests and console messages from a mark on, and which requests were the
// main frame's documents.
type LogDoor struct{ p *Page }

// Logs is the door's part for the page's logs.
func (d Door) Logs() LogDoor { return LogDoor(d) }

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

// Refusal is why the origin rules refused url, if they did.
func (l LogDoor) Refusal(url string) (string, bool) { return l.p.logs.Refusal(url) }

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
func (w *World) Frame() string { return string(w.key.Frame) }

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
	base := w.p.refs.Base()
	last, err := fn(base)
	if err != nil {
		return err
	}
	w.p.refs.Record(w.key, base, last)
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
