package jobs

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// message types task.text into selectors[0] and clicks selectors[1], once:
// the job is marked as having had effects before the click, so it is never
// run again, whatever happens after.
func (t *taskRun) message(ctx context.Context) outcome {
	if err := t.open(ctx); err != nil {
		return outcome{err: err}
	}
	if err := t.pastCaptcha(ctx); err != nil {
		return outcome{err: err}
	}
	field, send := t.job.Task.Selectors[0], t.job.Task.Selectors[1]
	t.r.progress(0.6, "typing the message")
	if _, err := t.act(ctx, actions.Type, field, map[string]any{"text": t.job.Task.Text, "clear": true}); err != nil {
		return outcome{err: err}
	}
	if _, err := t.r.update(ctx, []State{Running}, func(j *Job) {
		j.Effects, j.Progress, j.Summary = true, 0.8, "sending the message"
	}); err != nil {
		return outcome{err: fmt.Errorf("not sent: %w", err)}
	}
	fb, err := t.act(ctx, actions.Click, send, nil)
	if err != nil {
		return outcome{err: prefixed("the send button was not clicked: ", err)}
	}
	if err := sendRefused(fb, t.page.URL()); err != nil {
		return outcome{err: err}
	}
	return outcome{summary: fmt.Sprintf("sent the message on %s", t.page.URL()), finalURL: t.page.URL()}
}

// sendRefused is the failure of a message job whose send the server
// answered with an HTTP error (400 or more): a call of the page's own that
// the click made and that sends (a fetch or XMLHttpRequest, not a GET), or
// else the document the click led to (a form's post). The click happened, and the job is not run
// again (it may have had effects), but it FAILED: a consumer that reads
// only the status counts a SUCCEEDED message as sent, and the server said
// it did not take it. Its code is NETWORK_ERROR, as errorPage's.
func sendRefused(fb *feedback.Feedback, pageURL string) error {
	status, to := 0, ""
	for _, n := range fb.Net {
		if n.M != "" && n.S >= 400 {
			status, to = n.S, n.M+" "+n.U
			break
		}
	}
	if st := documentStatus(fb); status == 0 && st >= 400 {
		status, to = st, pageURL
	}
	if status == 0 {
		return nil
	}
	return &cdpclient.Error{Code: cdpclient.CodeNetworkError,
		Msg:  fmt.Sprintf("the send button was clicked, but the server answered HTTP %d for %s: the message was most likely not taken", status, to),
		Hint: "check the page and its server; the job is not run again, since the send may have had effects: to send it again, submit a new job with a new correlationId"}
}
