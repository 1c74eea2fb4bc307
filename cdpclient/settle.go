package cdpclient

import (
	"context"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagelog"

	"github.com/mafredri/cdp/protocol/runtime"
)

const (
	// loadSettle bounds how long an action waits for a navigation it started
	// to load.
	loadSettle = 10 * time.Second
	// requestSettle bounds how long an action waits for the requests it
	// issued; the ones still open then are reported as pending.
	requestSettle = 2 * time.Second
	// maxQuietMs bounds the wait for the DOM to go quiet after an action.
	maxQuietMs = 300
	// followQuiet is the quiet window that follows the answers to the calls
	// an action made (fetch, XMLHttpRequest) and a submit the page took over
	// in script: what their handlers do next (go to another page, show the
	// server's error, open a tab or a dialog, make another call), at once or
	// after a timer of a few hundred ms, is the action's effect. A quiet
	// period, not a deadline: it starts again after each answer, once the
	// renderer answered a round trip made after it (so it counts from when
	// the handlers could run, not from when the answer left the network).
	// An action that made no call and no such submit does not wait for it.
	// docs/tools.md "Action feedback" gives the measurements behind it.
	followQuiet = 400 * time.Millisecond
	// followMax bounds the follow-up as a whole, from the action's end: a
	// page that keeps calling (a poll every few hundred ms) holds an answer
	// this long at most.
	followMax = 3 * time.Second
	// settlePoll is how often the wait looks at requests, which finish
	// without a page state change.
	settlePoll = 20 * time.Millisecond
)

// settle waits for what an action started, never a fixed sleep: a navigation's
// load (a deadline of loadSettle), the requests issued since the action began
// (a deadline of requestSettle), tabs it opened (to be set up, within
// loadSettle), and, after an input action or a dialog's answer that made calls
// or a submit handled in script, what their handlers bring (followQuiet). It
// returns at once when the action started nothing; a page that becomes
// unusable (a dialog, a crash) ends the wait. It reports whether it followed
// the action's calls or submit.
func (p *Page) settle(ctx context.Context, o *observation, ws watchSet) (followed bool) {
	mark, nav := o.mark, o.nav
	// The round trip after the input: the requests the action's handlers
	// started before it answered are the action's own. A click sent it
	// already, beside its guard's verdict (earlySignal).
	submitted := p.signalled(ctx, o, ws)
	own := p.logs.Mark()
	o.polls = o.polls.After(own)
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, loadSettle)
	defer cancel()
	follow := o.kind == actInput || o.kind == actDialog
	var answered, quietFrom time.Time
	closed := false // the closing round trip of the quiet window was made
	if submitted {
		quietFrom = start
	}
	for {
		if p.usable() != nil {
			return followed // a dialog, crash or close ends the wait
		}
		ch := p.changed.Watch()
		loading, requests := p.unsettled(mark, nav, o.polls)
		opening := p.hist.Mark().WindowOpens-nav.WindowOpens > p.bc.Seq()-o.pages
		wait := settlePoll
		switch {
		case loading || opening:
			// A tab the page asked to open is waited for as a load is (a
			// busy machine sets it up slowly).
		case requests > 0:
			if time.Since(start) > requestSettle {
				return followed // the rest are reported pending
			}
		case !follow || p.hist.Mark().Docs > nav.Docs:
			// A new document arrived: what it loads later is waitFor's.
			return followed
		default:
			calls := p.logs.Calls(o.callsFrom, own, o.polls)
			if calls.Started == 0 && !submitted {
				return false // the action started nothing to follow
			}
			followed = true
			if calls.LastAnswer.After(answered) {
				answered = calls.LastAnswer
				p.barrier(ctx) // the handlers of the answer have run
				quietFrom, closed = time.Now(), false
			}
			if quietFrom.IsZero() {
				quietFrom = time.Now()
			}
			left := followQuiet - time.Since(quietFrom)
			if time.Since(start) >= followMax {
				return followed
			}
			if left <= 0 && !closed {
				// Quiet by the clock: one more round trip, so that what a
				// slow renderer still held (a timer due, a body's read)
				// runs and shows before the window closes.
				p.barrier(ctx)
				closed = true
				continue
			}
			if left <= 0 {
				return followed
			}
			wait = min(wait, left)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return followed
		case <-ch:
		case <-p.bc.arrived():
		case <-t.C:
		}
		t.Stop()
	}
}

// barrierWait bounds the round trip of barrier: a page whose script is stuck does
// not answer, and the action's own wait has dealt with that already. A page
// that is only slow (a loaded machine, a throttled renderer) answers late:
// the bound is that of a slow answer, not of a quick one, or the answers
// it holds would come after the action was called done. A dialog that opens
// meanwhile ends the wait at once (guard).
const barrierWait = time.Second

// barrier makes one round trip to the page's renderer so that the events it sent
// before answering have arrived: a request a click handler started is reported
// by the renderer after the click itself was acknowledged.
func (p *Page) barrier(ctx context.Context) {
	if p.usable() != nil {
		return
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	ctx, cancelWait := context.WithTimeout(ctx, barrierWait)
	defer cancelWait()
	_, _ = p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("0").SetSilent(true))
}

// unsettled reports whether a document the action started is still loading, and
// how many of its requests (not the page's polls) have no answer yet.
func (p *Page) unsettled(mark int, nav navMark, polls pagelog.Polls) (loading bool, requests int) {
	if p.usable() != nil {
		return false, 0 // a dialog, crash or close ends the wait
	}
	return p.hist.LoadingSince(nav), p.logs.PendingBut(mark, polls) + int(p.paused.Load())
}
