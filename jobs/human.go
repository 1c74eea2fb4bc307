package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// waitForHuman moves the job to WAITING_FOR_HUMAN with reason, its tab open
// and alive, offers the tab through the Handoff (when one is configured), and
// waits until the job is resumed (it returns the note it was resumed with; the
// job is RUNNING again), cancelled, given up or out of time. The offer ends
// with the wait. A job without handoffAllowed fails at once with a
// *NeedsHumanError.
func (t *taskRun) waitForHuman(ctx context.Context, reason string) (string, error) {
	if !t.job.Handoff {
		return "", &NeedsHumanError{Reason: reason}
	}
	q := t.q
	var url string
	if q.cfg.Handoff != nil {
		// The offer lasts as long as the wait may.
		octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), q.cfg.HandoffTimeout)
		var err error
		url, err = q.cfg.Handoff.Offer(octx, t.job, t.page, reason)
		cancel()
		if err != nil {
			slog.Warn("could not offer a job to a person", "job", t.job.ID, "err", err)
		}
		defer q.cfg.Handoff.Withdraw(t.job.ID)
	}
	summary := "waiting for a person: " + reason + "; call browser.job.resume when they are done"
	if url != "" {
		summary = "waiting for a person: " + reason + "; they can take over the tab at handoffUrl"
	}
	select { // a wake-up left from an earlier wait (the store's echo of a resume)
	case <-t.r.resume:
	default:
	}
	if _, err := t.r.update(ctx, []State{Running}, func(j *Job) {
		j.State, j.Summary, j.HandoffURL = WaitingForHuman, summary, url
	}); err != nil {
		return "", err
	}
	// A drain does not wait for it: a person's wait outlasts any grace.
	t.r.waiting.Store(true)
	defer t.r.waiting.Store(false)
	t.rec.Action("wait-for-human", map[string]any{"reason": reason, "liveView": url != ""})
	slog.Info("job waiting for a person", "job", t.job.ID, "reason", reason)
	// The job's own deadline does not run while a person works.
	t.r.budget.pause()
	defer t.r.budget.resume()
	wait := time.NewTimer(q.cfg.HandoffTimeout)
	defer wait.Stop()
	for {
		select {
		case note := <-t.r.resume:
			_, err := t.r.update(context.WithoutCancel(ctx), []State{Resumed}, func(j *Job) {
				j.State, j.Summary = Running, "running again after a person's help"
				if note == "" {
					note = j.Note // resumed through another process
				}
			})
			var se *jobstore.StateError
			if errors.As(err, &se) && se.State == WaitingForHuman {
				continue // a stale wake-up: not resumed yet
			}
			t.rec.Action("resumed", map[string]any{"note": note})
			return note, err
		case <-t.r.ctx.Done():
			return "", t.r.ctx.Err()
		case <-wait.C:
			return "", &PersonError{Reason: fmt.Sprintf("%s, and no one resumed the job within %s (--handoff-timeout)", reason, q.cfg.HandoffTimeout)}
		}
	}
}

// pastCaptcha hands a page that shows a CAPTCHA to a person when the job
// allows a handoff, and checks once they are done that it is gone. A job that
// does not allow one goes on as before and meets the CAPTCHA.
func (t *taskRun) pastCaptcha(ctx context.Context) error {
	if !t.job.Handoff {
		return nil
	}
	state, err := t.loginState(ctx)
	if err != nil || !state.Captcha {
		return nil // a page that cannot be read is the task's to report
	}
	if _, err := t.waitForHuman(ctx, "the page shows a CAPTCHA"); err != nil {
		return err
	}
	if state, err = t.loginState(ctx); err == nil && state.Captcha {
		return &PersonError{Reason: fmt.Sprintf("the page at %s still shows a CAPTCHA after a person's help", t.page.URL())}
	}
	return nil
}

// PersonError ends a job at a step only a person could take and did not
// finish: no one resumed it in time, or it was resumed and the page still
// shows what they were asked to get past. It is the person's outcome, not a
// failure of cdpmcp's: the job ends FAILED with Reason.
type PersonError struct{ Reason string }

func (e *PersonError) Error() string { return e.Reason }
