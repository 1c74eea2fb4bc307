package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp/protocol/runtime"
)

// watchSet is the frames an action is observed in: the main frame and, when the
// target lives in another frame, the target's frame.
type watchSet struct {
	keys []frameKey
}

// domChanges is what the page model saw change during an action (js/watch.js).
type domChanges = feedback.Changes

// watchStart starts recording DOM changes in the frames the action touches: the
// main frame, and the frame of e (the action's target) when that is another
// one. An answer to a dialog takes over the watch of the action that opened it.
// Watching is best effort: a page that cannot run scripts is not watched.
// watched says the watch in e's frame started already (resolveRef);
// mainWatch, when not nil, says whether the main frame's did, started beside
// it (watchMainEarly).
func (p *Page) watchStart(ctx context.Context, kind actKind, e *Element, watched bool, mainWatch <-chan bool) watchSet {
	if kind == actDialog {
		if ws, ok := p.dialogs.TakeKeptWatch(); ok {
			return ws
		}
	}
	var ws watchSet
	if p.usable() != nil {
		return ws
	}
	main := frameKey{Frame: p.hist.Main()}
	// The target's own frame (with the target as this) when not the main
	// frame: at the same time as the main frame's, one round trip, not two.
	var inFrame chan bool
	if e != nil && e.key != main {
		inFrame = make(chan bool, 1)
		if watched {
			inFrame <- true
		} else {
			target := e
			go func() { inFrame <- target.call(ctx, "watchTarget", nil) == nil }()
		}
	}
	if mainWatch != nil {
		if <-mainWatch {
			ws.keys = append(ws.keys, main)
		}
	} else if e != nil && watched && e.key == main {
		ws.keys = append(ws.keys, main)
	} else if p.withWorld(ctx, main, func(w *worldIn) error {
		if e != nil && e.key == main {
			return e.call(ctx, "watchTarget", nil)
		}
		_, err := w.eval(ctx, "__cdpmcp.watch(null)", true)
		return err
	}) == nil {
		ws.keys = append(ws.keys, main)
	}
	if inFrame != nil && <-inFrame {
		ws.keys = append(ws.keys, e.key)
	}
	return ws
}

// watchChanges waits (at most maxQuietMs) for the DOM to go quiet in each watched
// frame and collects what changed there, handing out refs to new elements. When
// nothing has changed yet it waits up to lateMs for a first change.
func (p *Page) watchChanges(ctx context.Context, ws watchSet, maxQuietMs, lateMs int) domChanges {
	var all domChanges
	for _, k := range ws.keys {
		if p.usable() != nil || p.busy.Busy() {
			break
		}
		_ = p.withWorld(ctx, k, func(w *worldIn) error {
			base := p.refs.Base()
			r, err := w.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(
				fmt.Sprintf("(async () => { await __cdpmcp.quiet(%d, %d); return __cdpmcp.changes({base: %d}); })()", maxQuietMs, lateMs, base)).
				SetContextID(w.id).SetReturnByValue(true).SetAwaitPromise(true))
			if err != nil {
				return err
			}
			if r.ExceptionDetails != nil {
				return &Error{Code: CodeJSError, Msg: "page model: " + ExceptionText(r.ExceptionDetails)}
			}
			var c domChanges
			if err := json.Unmarshal(r.Result.Value, &c); err != nil {
				return err
			}
			p.refs.Record(k, base, c.Last)
			all.Add(c)
			return nil
		})
	}
	return all
}

// submitSignal makes the round trip of barrier through the main frame's watch
// and answers whether the action submitted a form that the page then took
// over in script (js/watch.js signals): its effect (a call after an await, a
// timer) may come late. Without a watch in the main frame, or once the page
// left its document, it is barrier alone and answers false.
func (p *Page) submitSignal(ctx context.Context, ws watchSet, nav navMark) bool {
	main := frameKey{Frame: p.hist.Main()}
	if len(ws.keys) == 0 || ws.keys[0] != main || p.hist.Mark().Docs != nav.Docs || p.usable() != nil {
		p.barrier(ctx)
		return false
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	ctx, cancelWait := context.WithTimeout(ctx, barrierWait)
	defer cancelWait()
	var s struct {
		Submit bool `json:"submit"`
	}
	_ = p.withWorld(ctx, main, func(w *worldIn) error {
		r, err := w.eval(ctx, "__cdpmcp.signals ? __cdpmcp.signals() : {}", true)
		if err != nil {
			return err
		}
		return json.Unmarshal(r.Value, &s)
	})
	return s.Submit
}
