package actions

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// act runs an action on a page and answers with its feedback. fn may return a
// value worth reporting (the value a field ended up with, the scroll position):
// it goes into delta.value.
func (e *Env) act(ctx context.Context, pageID, name string, t cdpclient.Target, fn func(context.Context, *cdpclient.Page) (string, error)) (*Result, error) {
	p, err := e.Page(ctx, pageID)
	if err != nil {
		return nil, err
	}
	var value string
	fb, err := p.Act(ctx, name, t, func(ctx context.Context) error {
		var err error
		value, err = fn(ctx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	if fb.OK && value != "" {
		if fb.Delta == nil {
			fb.Delta = &feedback.Delta{}
		}
		fb.Delta.Value = value
	}
	return &Result{Feedback: fb}, nil
}

// permission answers an action the policy refused, as PERMISSION feedback.
func permission(act, msg, hint string) *Result {
	return &Result{Feedback: &feedback.Feedback{Act: act, OK: false, Code: int(cdpclient.CodePermission), Msg: msg, Hint: hint}}
}
