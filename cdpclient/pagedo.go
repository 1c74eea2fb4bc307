package cdpclient

import (
	"context"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/busy"
)

// do runs fn, an operation that reads the page, under the page's action lock
// (unless an action holds it already), gated as actions are, guarded against
// dialogs, crashes and closing, and bounded against a page stuck in a script.
func (p *Page) do(ctx context.Context, fn func(context.Context) error) error {
	nested := stateOf(ctx, p) != nil // inside an action, which has its own watch
	if !nested {
		var end func()
		var err error
		ctx, end, err = p.beginRead(ctx)
		defer end()
		if err != nil {
			return err
		}
	}
	gctx, cancel := p.guard(ctx)
	defer cancel()
	if nested {
		return cause(gctx, fn(gctx))
	}
	wctx, stop := p.busy.Guard(gctx)
	defer stop()
	return cause(wctx, cause(gctx, fn(wctx)))
}

// beginRead takes the page's action lock for a read and gates it as an
// action is gated (a dialog the policy answers, a stuck script); end
// releases the lock, also when the gate refused.
func (p *Page) beginRead(ctx context.Context) (context.Context, func(), error) {
	ctx, _, end := p.beginAction(ctx)
	return ctx, end, p.gate(ctx, &observation{p: p, kind: actInput, dialogBefore: true})
}

// doScript is do for running a caller's script (evaluate): no stuck-script
// watchdog, since a script of ours keeps the page from answering probes as a
// stuck one does, only busy.GuardNavigation's for a tab waiting for a
// navigation's server; the script may run until shortly before ctx's
// deadline and is then stopped (see busy.ScriptDeadline), with a
// *busy.ScriptTimeout saying so.
func (p *Page) doScript(ctx context.Context, fn func(context.Context) error) error {
	if stateOf(ctx, p) != nil {
		return p.do(ctx, fn)
	}
	ctx, end, err := p.beginRead(ctx)
	defer end()
	if err != nil {
		return err
	}
	gctx, cancel := p.guard(ctx)
	defer cancel()
	sctx, stop := busy.ScriptDeadline(gctx)
	defer stop()
	wctx, unwatch := p.busy.GuardNavigation(sctx)
	defer unwatch()
	start := time.Now()
	err = cause(wctx, cause(gctx, fn(wctx)))
	if err != nil && sctx.Err() != nil && gctx.Err() == nil {
		return p.busy.StopScript(start)
	}
	return err
}
