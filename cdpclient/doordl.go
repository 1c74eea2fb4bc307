package cdpclient

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// Wait runs a wait of a feature's (cdpclient/wait) through the
// action-and-observe cycle: gated, guarded and answered with what the page
// did meanwhile; only the wait itself can fail. The error is non-nil only
// for bad arguments (*ArgError) and a cancelled ctx.
func (d Door) Wait(ctx context.Context, run func(ctx context.Context) error) (*feedback.Feedback, error) {
	return d.p.perform(ctx, action{kind: actWatch, run: func(ctx context.Context, _ *Element) (string, error) {
		return "", run(ctx)
	}})
}
