package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/cdpmcp/cdpmcp/cdpclient/failure"

	"github.com/mafredri/cdp/protocol/runtime"
)

// Elements found by CSS selector (in open shadow roots too), in the main frame.

// SelectorError is the argument error for an exception the page function
// query (PageFunc) threw because selector is not valid CSS; nil for any other
// exception.
var SelectorError = failure.SelectorError

// resolveSelector finds the first element matching selector in the main frame.
func (p *Page) resolveSelector(ctx context.Context, selector string) (*Element, error) {
	b, _ := json.Marshal(selector)
	var el *Element
	err := p.withWorld(ctx, frameKey{Frame: p.hist.Main()}, func(w *worldIn) error {
		r, err := w.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("__cdpmcp.query("+string(b)+", true)").
			SetContextID(w.id).SetObjectGroup(p.actLock.Group()))
		if err != nil {
			return fmt.Errorf("evaluate: %w", err)
		}
		if r.ExceptionDetails != nil {
			if err := SelectorError(selector, r.ExceptionDetails); err != nil {
				return err
			}
			return &Error{Code: CodeJSError, Msg: "selector lookup failed: " + ExceptionText(r.ExceptionDetails)}
		}
		if r.Result.ObjectID == nil {
			return &Error{Code: CodeNotFound, Msg: fmt.Sprintf("no element matches selector %q", selector),
				Hint: "take a snapshot and use a ref, or check the selector; the element may not exist yet (use waitFor)"}
		}
		el = &Element{p: p, c: w.c, object: *r.Result.ObjectID, world: w.id, key: frameKey{Frame: p.hist.Main()}}
		return nil
	})
	return el, err
}
