package cdpclient

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/mafredri/cdp/protocol/runtime"
)

// probeTimeout is how long a page may take to answer "are you there?" before
// its running script is taken to be stuck.
const probeTimeout = 500 * time.Millisecond

// recoverIfStuck is called after an operation ran out of time. If the page's
// main thread does not answer a trivial evaluation, a script is looping
// (while(true){}) and holding everything up: it is terminated, so the page
// answers the next call. Pages blocked by a dialog are left alone. It returns
// the error to report: err, or one saying the script was stopped.
func (p *Page) recoverIfStuck(err error) error {
	if err == nil || (!errors.Is(err, context.DeadlineExceeded) && CodeOf(err) != CodeTimeout) || p.usable() != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	if _, perr := p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("1")); perr == nil {
		return err // the page is slow, not stuck
	}
	tctx, tcancel := context.WithTimeout(context.Background(), cdpCallTimeout)
	defer tcancel()
	if terr := p.c.Runtime.TerminateExecution(tctx); terr != nil {
		slog.Warn("could not stop a stuck script", "page", p.ID, "err", terr)
		return err
	}
	slog.Info("stopped a script that kept the page busy", "page", p.ID)
	return &Error{Code: CodeTimeout, Err: err,
		Msg:  "a script of the page ran without end and blocked it; the script was stopped",
		Hint: "the page answers again; reload it if it no longer works, or avoid what started the script"}
}
