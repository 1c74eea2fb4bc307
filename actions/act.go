package actions

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// onPage runs an action on a page (the one named, or the current one) and
// answers with its feedback, named after the action.
func (e *Env) onPage(ctx context.Context, pageID, name string, fn func(context.Context, *cdpclient.Page) (*feedback.Feedback, error)) (*Result, error) {
	p, err := e.Page(ctx, pageID)
	if err != nil {
		return nil, err
	}
	return actOn(ctx, p, name, fn)
}

// actOn runs fn on p and names its feedback's action.
func actOn(ctx context.Context, p *cdpclient.Page, name string, fn func(context.Context, *cdpclient.Page) (*feedback.Feedback, error)) (*Result, error) {
	fb, err := fn(ctx, p)
	if err != nil {
		return nil, err
	}
	fb.Act = name
	return &Result{Feedback: fb}, nil
}

// permission answers an action the policy refused, as PERMISSION feedback.
func permission(act, msg, hint string) *Result {
	return &Result{Feedback: &feedback.Feedback{Act: act, OK: false, Code: int(cdpclient.CodePermission), Msg: msg, Hint: hint}}
}
