package cdpclient

import (
	"context"
	"errors"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/leaving"
	"github.com/cdpmcp/cdpmcp/internal/spans"
)

// actKind says what an action does, which decides how it is observed and when it
// counts as having happened.
type actKind int

// lateFrame is how long an action waits for a handler's follow-up in the
// next frame, when it changed nothing at once (see action.lateMs).
const lateFrame = 20

const (
	// actInput acts on the page as a user would; it happened once its input
	// reached the page, whatever the page then did.
	actInput actKind = iota
	// actNavigation loads a document; it happened when a document arrived, even
	// an error page.
	actNavigation
	// actWatch only waits and watches (waitFor): what the page does meanwhile
	// is reported, and only the wait itself can fail.
	actWatch
	// actDialog answers a JavaScript dialog: the one action a dialog does not
	// block.
	actDialog
)

// action is one observed action on a page.
type action struct {
	kind   actKind
	target Target
	// resolve finds the target element before the action runs, once: the
	// watch and the action share it.
	resolve bool
	// lateMs is how long to wait for a first change the action sets off
	// asynchronously (a handler's timer, a file read) when it changed nothing
	// at once; 0 waits for none.
	lateMs int
	// ready, when not empty, is the source of a function of the page
	// model's world that run calls first on the target (as this): it goes
	// out beside the round trip that finds the target by ref, and run finds
	// its value with the element (Element.readyValue).
	ready string
	// newDocument: sure to bring a new document (a navigation), the action
	// watches nothing in the one it leaves: nothing done there is its own.
	newDocument bool
	// run does the action. value, when not empty, is reported as delta.value
	// (the value a field ended up with, where a scroll stopped).
	run func(ctx context.Context, e *Element) (value string, err error)
}

// beginAction takes the page's action lock and starts an object group for the
// operation; end releases both. Operations under the returned context do not
// take the lock again.
func (p *Page) beginAction(ctx context.Context) (context.Context, *actState, func()) {
	spans.Clock(ctx, "browser", p.bc.b.m.Busy)
	endWait := spans.Start(ctx, "queue") // behind another action on the page
	p.actLock.Begin()
	endWait()
	st := &actState{p: p}
	return context.WithValue(ctx, actStateKey{}, st), st, func() { p.actLock.End(p.releaseObjects) }
}

// perform runs an action and reports what it did: outcome, URL change, DOM
// changes keyed by ref, console errors, requests, new tabs and dialogs, and
// what the page did on its own since the last answer (before). The error is
// non-nil only for bad arguments (*ArgError) and when the caller cancelled
// ctx; every other failure is in the feedback, and ok there means the action
// happened.
func (p *Page) perform(ctx context.Context, a action) (*feedback.Feedback, error) {
	start := time.Now()
	ctx, st, end := p.beginAction(ctx)
	defer end()
	o := p.startObservation(a.kind)
	st.o = o
	fb, err := p.performObserved(ctx, st, o, a)
	if fb != nil {
		fb.Timing = time.Since(start).Milliseconds()
	}
	return fb, err
}

func (p *Page) performObserved(ctx context.Context, st *actState, o *observation, a action) (*feedback.Feedback, error) {
	if err := p.gate(ctx, o); err != nil {
		return o.failed(ctx, err), nil
	}
	var e *Element
	// A ref's element is found and watched in one round trip (watchStart
	// then watches the main frame only, when it is another frame).
	watched := false
	var mainWatch <-chan bool // started with the resolve (watchMainEarly)
	if a.resolve && !a.target.IsZero() {
		var err error
		endResolve := spans.Start(ctx, "resolve")
		if watched = a.target.Ref != "" && a.kind != actDialog && !o.revived && p.usable() == nil; watched {
			mainWatch = p.watchMainEarly(ctx, a.target.Ref)
			e, err = p.resolveRef(ctx, a.target.Ref, true, a.ready)
		} else {
			e, err = p.Resolve(ctx, a.target)
		}
		endResolve()
		if err != nil {
			if mainWatch != nil {
				<-mainWatch // not left running past the action
			}
			if errors.As(err, new(*ArgError)) {
				return nil, err
			}
			return o.failed(ctx, err), nil
		}
	}
	var ws watchSet
	// A crashed renderer answers nothing: there is no DOM to watch. Nor
	// does the page of a tab waiting for a navigation's server, which a
	// navigation (goBack) leaves for good.
	awaited := a.kind == actNavigation && p.pendingNavigation() != nil
	if !o.revived && !a.newDocument && !awaited {
		// A dialog opening meanwhile holds the renderer: the watch gives way.
		wctx, cancel := p.guard(ctx)
		endWatch := spans.Start(ctx, "watch")
		ws = p.watchStart(wctx, a.kind, e, watched, mainWatch)
		endWatch()
		cancel()
	}
	o.ws = ws
	rctx, stop := ctx, func() {}
	switch a.kind {
	case actNavigation:
		var cancel func()
		rctx, cancel = p.leavingGuard(ctx, o)
		defer cancel()
	case actDialog:
	default:
		// A dialog the action opens, a crash or the tab closing end it.
		var cancel func()
		rctx, cancel = p.guard(rctx)
		defer cancel()
	}
	if a.kind == actInput || a.kind == actDialog {
		// A navigation and a wait have deadlines of their own and leave the
		// page free; input can hand the page to a script that never returns.
		rctx, stop = p.busy.Guard(rctx)
	}
	endRun := spans.Start(ctx, "act")
	value, err := a.run(rctx, e)
	endRun()
	err = cause(rctx, err)
	if errors.Is(err, leaving.ErrLoadAnew) {
		// The page it was leaving was stopped for its dialogs: the tab has
		// a new renderer to load in.
		o.revived = true
		actx, cancel := p.leavingGuard(ctx, o)
		value, err = a.run(actx, e)
		err = cause(actx, err)
		cancel()
	}
	stop()
	switch {
	case errors.As(err, new(*ArgError)):
		return nil, err
	case errors.Is(ctx.Err(), context.Canceled):
		return nil, ctx.Err() // the caller gave up: no feedback to give
	}
	err = o.happened(st, err)
	o.typed = st.typed.Load()
	o.callsFrom = o.mark
	if m := st.inputMark.Load(); m > 0 {
		o.callsFrom = int(m - 1)
	}
	var stuck *busy.Error
	if err == nil || !errors.As(err, &stuck) {
		if p.Dialog() != nil && !o.dialogBefore {
			p.dialogs.KeepWatch(ws) // collected once the dialog is answered
		} else {
			o.settleAndWatch(ctx, ws, a.lateMs, err)
		}
	}
	endFeedback := spans.Start(ctx, "feedback")
	fb := o.feedback(ctx, err)
	endFeedback()
	if fb.OK && value != "" {
		if fb.Delta == nil {
			fb.Delta = &feedback.Delta{}
		}
		fb.Delta.Value = value
	}
	return fb, nil
}

// leavingGuard is a navigation's guard: it leaves the page past its dialogs,
// as a person who asked to go elsewhere would: a "leave site?" prompt
// accepted, others dismissed, and a script that opens them without end
// stopped (which ends the context with leaving.ErrLoadAnew).
func (p *Page) leavingGuard(ctx context.Context, o *observation) (context.Context, context.CancelFunc) {
	actx, again := context.WithCancelCause(ctx)
	gctx, cancel := p.guardExcept(actx, func(d *Dialog) bool { return p.leavePast(ctx, d, o, again) })
	return gctx, func() { cancel(); again(nil) }
}

// gate checks that the page can take an action now: it is open, a dialog does
// not block it (or the dialog policy answers it), no script keeps it busy,
// and, for input and reads, its tab is not waiting for a navigation's server.
func (p *Page) gate(ctx context.Context, o *observation) error {
	if err := p.life.Err(); err != nil {
		// A navigation (reload, navigate) is how a crashed tab comes back:
		// the browser gives it a new renderer.
		if err != ErrPageCrashed || o.kind != actNavigation {
			return err
		}
		p.uncrash()
		o.revived = true
	}
	if o.kind == actNavigation && p.Dialog() != nil {
		closed, endless, err := p.leaveDialogs(ctx)
		o.setDialogClosed(closed)
		if err != nil {
			return err
		}
		o.revived = endless // the renderer was stopped: the tab loads in a new one
	} else if o.kind != actDialog && p.Dialog() != nil {
		closed, err := p.answerBlockingDialog(ctx)
		o.setDialogClosed(closed)
		if err != nil {
			return err
		}
		o.dialogBefore = p.Dialog() != nil
	}
	if o.kind == actNavigation {
		p.busy.StopStuck()
		return nil
	}
	if err := p.busy.Check(); err != nil || o.kind != actInput {
		return err // a wait outlasts a navigation; a dialog's answer is the browser's
	}
	return p.busy.CheckNavigation()
}

// requireTarget refuses an element action that names no element.
func requireTarget(t Target) error {
	if t.IsZero() {
		return ArgErrorf("pass ref (from snapshot) or selector", "no target element given")
	}
	return nil
}

// onElement is an input action on the target element; lateMs as in action.
func (p *Page) onElement(ctx context.Context, t Target, lateMs int, run func(ctx context.Context, e *Element) (string, error)) (*feedback.Feedback, error) {
	if err := requireTarget(t); err != nil {
		return nil, err
	}
	return p.perform(ctx, action{kind: actInput, target: t, resolve: true, lateMs: lateMs, run: run})
}
