package cdpclient

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/mafredri/cdp/protocol/input"
)

// clickTries is how often a click whose element moved away from under the
// pointer is measured and sent again before it fails.
const clickTries = 3

// clickGuarded clicks the element where clickablePoint measured it, with a
// click guard armed (js/clickguard.js): a page that moved between the measure
// and the click (text filled in above the element, a late banner) does not
// get the click on whatever moved there. The guard stops such a click before
// the page sees it; the element is measured and clicked again, up to
// clickTries times, and then the click fails as one that did not happen.
func (p *Page) clickGuarded(ctx context.Context, e *Element, button input.MouseButton, count, mods int) error {
	for try := 1; ; try++ {
		pt, err := e.clickablePoint(ctx)
		if err != nil {
			return err
		}
		var armed bool
		if e.call(ctx, "armClickGuard", &armed) != nil {
			armed = false // a frame it cannot reach: the hit check before is all there is
		}
		if err := p.mouseClick(ctx, pt.X, pt.Y, button, count, mods); err != nil {
			return err
		}
		if !armed {
			return nil
		}
		var r struct {
			Blocked bool
			Hit     string
		}
		// An error here is the click's doing (it left the document): it landed.
		if e.call(ctx, "clickGuardResult", &r) != nil || !r.Blocked {
			return nil
		}
		slog.Debug("the page moved under a click; measuring again", "try", try, "hit", r.Hit)
		if try == clickTries {
			unmarkDispatched(ctx)
			return &Error{Code: CodeObscured,
				Msg:  fmt.Sprintf("the page kept moving under the click: %d times, %s was where the element had been; nothing was clicked", clickTries, r.Hit),
				Hint: "wait until the page settles (waitFor the content it is loading), then click again"}
		}
	}
}

// unmarkDispatched records that the running action's input, stopped before the
// page saw it (a click guard's), did not happen after all.
func unmarkDispatched(ctx context.Context) {
	if st, _ := ctx.Value(actStateKey{}).(*actState); st != nil {
		st.dispatched.Store(false)
	}
}
