package cdpclient

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp"
)

// Mode says which of the page's rules an operation run through Door.Run
// gets. What each applies:
//
//	mode          action lock  gate   guard    busy watchdog  observed  else
//	ModeRead      yes (1)      yes    yes      yes (1)        no
//	ModeLongRead  yes          yes    yes      no             no
//	ModeScript    yes (1)      yes    yes      no (2)         no
//	ModeNavigate  yes          yes    leaving  no             yes       fn loads with Frames.Load
//	ModeWait      yes          yes    yes      no             yes       only the wait can fail
//	ModeAct(a)    yes          yes    yes      yes            yes       a.Target resolved first
//	ModeRemote    no           usable yes      no             no        tab to the front
//	ModeBeside    no           usable yes      no             no
//	ModeBare      no           no     no       no             no        fn gets the client only
//
// The action lock is the page's: one operation at a time, its objects
// released after it. The gate refuses a page that cannot be used (closed,
// crashed, a dialog open the dialog policy does not answer, stuck in a
// script; a navigation revives a crashed tab and leaves past dialogs). The
// guard ends fn's ctx when a dialog opens
// or the tab closes or crashes, and answers why; a navigation's (leaving)
// accepts a "leave site?" prompt and dismisses others, as a person who asked
// to go elsewhere would. A usable tab is one not closed, crashed or behind a
// dialog, checked once before fn (no dialog is answered). The busy
// watchdog stops an operation on a page stuck in a script of its own. An
// observed mode is an action: it answers what the page did (feedback) and
// an error only for bad arguments (*ArgError) and a cancelled ctx; fn's
// error is in the feedback.
//
// (1) Inside an action (fn of an observed mode) ModeRead and ModeScript run
// under that action's lock, gate and watch, guarded only. (2) ModeScript
// runs the caller's own script (evaluate) until shortly before ctx's
// deadline, then stops it and answers a *busy.ScriptTimeout.
type Mode struct {
	rules rules
	act   InputAction // ModeAct's
}

type rules int

const (
	rulesNone rules = iota
	rulesRead
	rulesLongRead
	rulesScript
	rulesNavigate
	rulesWait
	rulesAct
	rulesRemote
	rulesBeside
	rulesBare
)

// The modes of Door.Run (see Mode for what each applies).
var (
	// ModeRead reads the page: a snapshot, a query, a screenshot.
	ModeRead = Mode{rules: rulesRead}
	// ModeLongRead is ModeRead without the busy watchdog, for a long read
	// whose own script keeps the renderer busy for seconds on a large page
	// (which the watchdog would take for a stuck page). A page already
	// stuck is refused by the gate; ctx bounds the rest.
	ModeLongRead = Mode{rules: rulesLongRead}
	// ModeScript runs the caller's own script (evaluate).
	ModeScript = Mode{rules: rulesScript}
	// ModeNavigate is a page-level navigation; fn loads pages with
	// Frames.Load.
	ModeNavigate = Mode{rules: rulesNavigate}
	// ModeWait is a wait (cdpclient/wait), answered with what the page did
	// meanwhile.
	ModeWait = Mode{rules: rulesWait}
	// ModeRemote is one call of a person's remote input (cdpclient/live):
	// keys go to the focused tab, so the tab is brought to the front first.
	ModeRemote = Mode{rules: rulesRemote}
	// ModeBeside is a read beside the actions (where the secret fields are
	// drawn), which may use Door.World.
	ModeBeside = Mode{rules: rulesBeside}
	// ModeBare hands fn the client and nothing more: the calls of a stream
	// that runs beside the actions and needs none of their rules (a
	// screencast's start, stop and frame acknowledgements), a read the page
	// answers at once (its frame tree, its history).
	ModeBare = Mode{rules: rulesBare}
)

// InputAction is what an input action run with ModeAct acts on.
type InputAction struct {
	// Target is the element resolved before fn runs, once (the watch and
	// the action share it; ActionElement hands it to fn); zero for an
	// action on no element.
	Target Target
	// NeedTarget refuses a zero Target with an argument error.
	NeedTarget bool
	// LateMs is how long to wait for a first change the action sets off
	// asynchronously (a handler's timer, a file read) when it changed
	// nothing at once; 0 waits for none.
	LateMs int
}

// ModeAct is the mode of an input action through the action-and-observe
// cycle, as Click runs: a.Target is resolved once before fn runs (the watch
// and the action share it; ActionElement hands it to fn). fn must call
// Dispatched before its first input reaches the page: from then on the
// action happened, whatever follows.
func ModeAct(a InputAction) Mode { return Mode{rules: rulesAct, act: a} }

// Run runs fn on the page under the rules of mode m (the table at Mode). c
// is the page session's protocol client: the door's one way to it. The
// feedback is an observed mode's (ModeNavigate, ModeWait, ModeAct) answer,
// nil for the others.
func (d Door) Run(ctx context.Context, m Mode, fn func(ctx context.Context, c *cdp.Client) error) (*feedback.Feedback, error) {
	p := d.p
	call := func(ctx context.Context) error { return fn(ctx, p.c) }
	switch m.rules {
	case rulesRead:
		return nil, p.do(ctx, call)
	case rulesLongRead:
		return nil, p.doLong(ctx, call)
	case rulesScript:
		return nil, p.doScript(ctx, call)
	case rulesNavigate:
		return p.navigation(ctx, false, call)
	case rulesWait:
		return p.perform(ctx, action{kind: actWatch, run: func(ctx context.Context, _ *Element) (string, error) {
			return "", call(ctx)
		}})
	case rulesAct:
		return p.act(ctx, m.act, call)
	case rulesRemote:
		return nil, p.remote(ctx, call)
	case rulesBeside:
		return nil, p.beside(ctx, call)
	case rulesBare:
		return nil, call(ctx)
	}
	return nil, fmt.Errorf("cdpclient: Door.Run with the zero Mode")
}

// doLong is do without the busy watchdog (ModeLongRead).
func (p *Page) doLong(ctx context.Context, fn func(context.Context) error) error {
	ctx, _, end := p.beginAction(ctx)
	defer end()
	if err := p.gate(ctx, &observation{p: p, kind: actInput, dialogBefore: true}); err != nil {
		return err
	}
	gctx, cancel := p.guard(ctx)
	defer cancel()
	return cause(gctx, fn(gctx))
}

// remote runs one call of a person's remote input (ModeRemote): on a usable
// tab, brought to the front, ended early when a dialog opens or the tab
// closes or crashes.
func (p *Page) remote(ctx context.Context, fn func(context.Context) error) error {
	if err := p.usable(); err != nil {
		return err
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	if err := p.toFront(ctx); err != nil {
		return cause(ctx, err)
	}
	return cause(ctx, fn(ctx))
}

// beside runs fn on a usable tab, ended early when a dialog opens or the tab
// closes or crashes (ModeBeside).
func (p *Page) beside(ctx context.Context, fn func(context.Context) error) error {
	if err := p.usable(); err != nil {
		return err
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	return cause(ctx, fn(ctx))
}

// act runs fn as an input action (ModeAct).
func (p *Page) act(ctx context.Context, a InputAction, fn func(context.Context) error) (*feedback.Feedback, error) {
	if a.NeedTarget {
		if err := requireTarget(a.Target); err != nil {
			return nil, err
		}
	}
	return p.perform(ctx, action{kind: actInput, target: a.Target, resolve: true, lateMs: a.LateMs,
		run: func(ctx context.Context, e *Element) (string, error) {
			in := &acting{e: e}
			err := fn(context.WithValue(ctx, actingKey{}, in))
			return in.value, err
		}})
}

// acting is what a ModeAct fn is handed through its ctx: the element it
// acts on and the value it reports.
type acting struct {
	e     *Element
	value string
}

type actingKey struct{}

// ActionElement is the element a ModeAct fn acts on (its InputAction's
// Target, resolved); nil for an action on no element and outside one.
func ActionElement(ctx context.Context) *Element {
	if in, _ := ctx.Value(actingKey{}).(*acting); in != nil {
		return in.e
	}
	return nil
}

// ReportValue sets the value a ModeAct fn reports as delta.value (the value
// a field ended up with, where a scroll stopped); the last one set counts.
func ReportValue(ctx context.Context, value string) {
	if in, _ := ctx.Value(actingKey{}).(*acting); in != nil {
		in.value = value
	}
}

// Dispatched records that input of the running action reached the page:
// from then on the action happened, whatever follows.
func Dispatched(ctx context.Context) { markDispatched(ctx) }
