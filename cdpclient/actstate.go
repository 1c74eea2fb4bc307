package cdpclient

import (
	"context"
	"sync/atomic"
)

// What an action did, as it runs: its state (whether its input reached the
// page, whether it typed text a retry would type again), and the errors
// that say how far it went (Incomplete, NotDone).

// Incomplete is returned by an action that happened but did not finish: its
// input reached the page, which then got stuck or is still loading. Feedback
// reports it as done (ok), with Msg among the errors and Hint as the hint, so a
// model does not repeat an action that already took effect.
type Incomplete struct {
	Msg, Hint string
	Err       error
}

func (e *Incomplete) Error() string { return e.Msg }
func (e *Incomplete) Unwrap() error { return e.Err }

// actState is the running action's state, reachable from its context.
type actState struct {
	p *Page
	o *observation // an action's (perform), nil for an operation
	// dispatched is set once input was sent to the page: from then on the
	// action has happened, whatever follows.
	dispatched atomic.Bool
	// inputMark is the page log's mark when input first reached the page,
	// plus one (0: not yet): the calls the action made start after it.
	inputMark atomic.Int64
	// typed is set once the action added typed text to a field: a retry
	// would add it again (Typed).
	typed atomic.Bool
}

type actStateKey struct{}

// stateOf returns the running action's state, or nil outside an action on p.
func stateOf(ctx context.Context, p *Page) *actState {
	st, _ := ctx.Value(actStateKey{}).(*actState)
	if st == nil || st.p != p {
		return nil
	}
	return st
}

// markDispatched records that input of the running action reached the page.
func markDispatched(ctx context.Context) {
	if st, _ := ctx.Value(actStateKey{}).(*actState); st != nil {
		st.dispatched.Store(true)
		st.inputMark.CompareAndSwap(0, int64(st.p.logs.Mark())+1)
	}
}

// unmarkDispatched records that the running action's input, stopped before the
// page saw it (a click guard's), did not happen after all.
func unmarkDispatched(ctx context.Context) {
	if st, _ := ctx.Value(actStateKey{}).(*actState); st != nil {
		st.dispatched.Store(false)
	}
}

// NotDone marks err, returned by an action after its input reached the
// page, as the action not having happened all the same: what it was for did
// not come about (uploadFile's click opened no file chooser). The answer is
// ok false with err's code, and its delta says what the input did.
func NotDone(err error) error { return notDone{err} }

type notDone struct{ err error }

func (n notDone) Error() string { return n.err.Error() }
func (n notDone) Unwrap() error { return n.err }

// Typed records that the running action added typed text to a field, which
// a retry would add again: a submit the browser's validation then refuses
// leaves the action ok, with the refusal as its error (observation.validation).
func Typed(ctx context.Context) {
	if st, _ := ctx.Value(actStateKey{}).(*actState); st != nil {
		st.typed.Store(true)
	}
}
