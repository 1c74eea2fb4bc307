package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mafredri/cdp/protocol/runtime"
)

// Round trips an action sends at the same time as another one it does not
// depend on, so that each costs the action no wait of its own: the main
// frame's watch started while a target in another frame is found
// (watchMainEarly), and the submit signal settle reads sent beside the click
// guard's verdict (earlySignal). Each answers what the round trip made alone
// would: it is made at the same point of the action, only not waited for
// before the next one is sent.

// watchMainEarly starts the page model's watch in the main frame while the
// action's ref, which lives in another frame, is found and watched there
// (resolveRef): the two round trips go out together. It returns nil when the
// ref is the main frame's (resolveRef watches it there) or unknown; else a
// channel that says whether the main frame's watch started (watchStart).
func (p *Page) watchMainEarly(ctx context.Context, ref string) <-chan bool {
	_, k, err := p.refFrame(ref)
	main := frameKey{Frame: p.hist.Main()}
	if err != nil || k == main {
		return nil
	}
	started := make(chan bool, 1)
	go func() {
		// A dialog opening meanwhile holds the renderer: the watch gives way.
		wctx, cancel := p.guard(ctx)
		defer cancel()
		started <- p.withWorld(wctx, main, func(w *worldIn) error {
			_, err := w.eval(wctx, "__cdpmcp.watch(null)", true)
			return err
		}) == nil
	}()
	return started
}

// earlySignal sends settle's first round trip (submitSignal: the submit
// signal of the main frame's watch, and the barrier after the input) now,
// beside the round trip the caller makes next, and leaves its answer for
// settle. Call it once the action's input was answered; a click sent again
// calls it again (the earlier answer is dropped). Outside an action it does
// nothing.
func (p *Page) earlySignal(ctx context.Context) {
	st := stateOf(ctx, p)
	if st == nil || st.o == nil {
		return
	}
	o := st.o
	submitted := make(chan bool, 1)
	o.signal = submitted
	// Not the action's run context, which ends with the run: settle reads
	// the answer after. submitSignal bounds its own wait.
	ctx = context.WithoutCancel(ctx)
	go func() { submitted <- p.submitSignal(ctx, o.ws, o.nav) }()
}

// signalled is the submit signal of the action's input: the one earlySignal
// sent, or, without it, submitSignal's round trip made now.
func (p *Page) signalled(ctx context.Context, o *observation, ws watchSet) bool {
	if o.signal != nil {
		return <-o.signal
	}
	if o.kind == actNavigation && p.hist.Mark().Docs != o.nav.Docs {
		// A navigation submits nothing; its round trip after the load
		// reads the new document's title, which the feedback shows.
		o.readTitle(ctx)
		return false
	}
	return p.submitSignal(ctx, ws, o.nav)
}

// titleRead is a document's title read from the page, with when and in which
// document it was read.
type titleRead struct {
	text string
	docs int
	at   time.Time
}

// readTitle reads the title of the document the navigation brought, as the
// barrier's round trip to its renderer (the events it sent before answering
// have arrived), and keeps it for the feedback: where barrier then title made
// two trips, one, with the world's question folded in (evalPlain). A page
// that cannot answer gets the barrier alone.
func (o *observation) readTitle(ctx context.Context) {
	p := o.p
	docs := p.hist.Mark().Docs
	if t, ok := p.pageTitle(ctx); ok {
		o.title = titleRead{text: t, docs: docs, at: time.Now()}
		return
	}
	p.barrier(ctx)
}

// documentTitle is the feedback's title: the one readTitle read, when settle
// returned at once after it (no request waited for, no other document), else
// read now.
func (o *observation) documentTitle(ctx context.Context) string {
	if t := o.title; !t.at.IsZero() && t.docs == o.p.hist.Mark().Docs && time.Since(t.at) <= settlePoll {
		return t.text
	}
	return o.p.DocumentTitle(ctx)
}

// readyValue is what an action's ready function answered (callReady).
type readyValue struct {
	value json.RawMessage
	err   error
}

// callReady calls ready (a function's source, "" for none) on the element
// with ref n in world w, beside the round trip that finds the element: the
// answer comes on the channel it returns (nil without ready).
func callReady(ctx context.Context, w *worldIn, n int, ready string) <-chan readyValue {
	if ready == "" {
		return nil
	}
	out := make(chan readyValue, 1)
	go func() {
		r, err := w.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(fmt.Sprintf("(%s).call(__cdpmcp.get(%d))", ready, n)).
			SetContextID(w.id).SetReturnByValue(true).SetAwaitPromise(true))
		switch {
		case err != nil:
			out <- readyValue{err: err}
		case r.ExceptionDetails != nil:
			out <- readyValue{err: &Error{Code: CodeJSError, Msg: "page model: " + ExceptionText(r.ExceptionDetails)}}
		default:
			out <- readyValue{value: r.Result.Value}
		}
	}()
	return out
}

// readyValue decodes the answer of the action's ready function into out,
// once: false when there is none (or it failed), and the caller asks anew.
func (e *Element) readyValue(out any) bool {
	if e.ready == nil {
		return false
	}
	v := <-e.ready
	e.ready = nil
	return v.err == nil && len(v.value) > 0 && json.Unmarshal(v.value, out) == nil
}
