package jobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"regexp"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// describe turns a job's failure into a message for its status: its code and
// what happened, and a hint for whoever submitted the job, who has no page to
// take a snapshot of.
func describe(err error) string {
	var nh *NeedsHumanError
	if errors.As(err, &nh) {
		return nh.Reason + " (submit with handoffAllowed: true to let a person help)"
	}
	var pe *PersonError
	if errors.As(err, &pe) {
		return pe.Reason
	}
	c := cdpclient.Classify(err)
	s := c.Code.String() + ": " + c.Msg
	if h := jobHint(c); h != "" {
		s += " (" + h + ")"
	}
	return s
}

// prefixed is err with what it meant for the job before its message, its
// code and hint kept (a wrap with %w would keep the code, and lose the words
// from the message a status gives).
func prefixed(prefix string, err error) error {
	c := cdpclient.Classify(err)
	return &cdpclient.Error{Code: c.Code, Msg: prefix + c.Msg, Hint: c.Hint, Ref: c.Ref, Err: err}
}

// pageTools are words of hints meant for a caller who drives a page.
var pageTools = regexp.MustCompile(`\b(snapshot|listPages|closePage|switchPage|newPage|handleDialog|waitFor|ref)\b`)

// jobHint is the hint of a job's failure: the classification's, unless it
// speaks of page tools a job's submitter does not have.
func jobHint(c *cdpclient.Error) string {
	switch c.Code {
	case cdpclient.CodeTimeout:
		return "raise task.timeoutMs, or check that the page loads"
	case cdpclient.CodeBrowserGone:
		return "submit it again with a new correlationId"
	}
	if pageTools.MatchString(c.Hint) {
		if c.Code == cdpclient.CodeNotFound {
			return "check task.selectors against the page (the job's screenshot shows it as the job left it)"
		}
		return ""
	}
	return c.Hint
}

// maxRuns bounds how often a job runs when its browser keeps dying under it
// (a page that brings the browser down would otherwise run for ever).
const maxRuns = 3

// afterBrowserDeath applies the restart rules to a job whose browser died
// while it ran: a navigate or extract job that had no effect yet is queued to
// run again (it returns the job as stored); any other job ends FAILED
// "interrupted", as it would after a server restart, with the reason it returns.
func (q *Queue) afterBrowserDeath(ctx context.Context, j *Job, out outcome) (*Job, string) {
	why := cdpclient.Classify(out.err).Msg
	rerun := (j.Task.Type == TaskNavigate || j.Task.Type == TaskExtract) && !j.HasSecret && !j.Effects
	if rerun && j.Attempt < maxRuns {
		again, err := q.store.Update(ctx, j.ID, []State{Running}, func(j *Job) {
			j.State, j.Progress, j.Artifacts, j.Lease = Queued, 0, out.artifacts, time.Time{}
			j.Summary = fmt.Sprintf("queued to run again: its browser died while it ran (%s); cdpmcp started a new one", why)
		})
		if err == nil && again.State == Queued {
			return again, ""
		}
	}
	if rerun {
		return nil, fmt.Sprintf("interrupted: its browser died under it in each of %d runs (%s); submit it again with a new correlationId if it should run", j.Attempt, why)
	}
	return nil, fmt.Sprintf("interrupted: its browser died while it ran (%s); a %s job is not run twice because it may already have had effects; submit it again with a new correlationId if it should", why, j.Task.Type)
}

// artifactsFailed turns the failure to write a job's artifacts (a full disk)
// into the job's failure: the artifacts it lists are the ones written whole.
func artifactsFailed(dir string, err error) error {
	return &cdpclient.Error{Code: cdpclient.CodeInternal, Err: err,
		Msg:  fmt.Sprintf("could not write the job's artifacts in %s: %v", dir, rootCause(err)),
		Hint: "free space on that disk (df -h shows it), then submit the job again; its result, if it had one, is kept"}
}

// writeFailed reports whether err is a file that could not be written (as
// opposed to, say, a video with no frames to encode).
func writeFailed(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe)
}

// rootCause is the innermost error: "no space left on device", not the path
// it was said about.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// retryFinish records a job's end that the store refused (a full disk),
// every few seconds until it is written or the queue closes. An end is
// reported only once it is kept: until then the job reads as the store has
// it (RUNNING), its summary saying its end waits to be recorded; if the
// process stops first, the job is taken up as any job whose holder went
// away (a navigate or extract job runs again, the others end "interrupted"),
// and no answer given is ever taken back.
func (q *Queue) retryFinish(id string, from []State, change func(*Job), storeErr error) {
	q.mu.Lock()
	if q.unsaved == nil {
		q.unsaved = map[string]error{}
	}
	q.unsaved[id] = storeErr
	q.mu.Unlock()
	q.wg.Go(func() {
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-q.ctx.Done():
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(mayUseReserve(q.ctx), 5*time.Second)
			done, err := q.store.UpdateHeld(ctx, id, q.cfg.Worker, from, change)
			cancel()
			var se *jobstore.StateError
			if err == nil || errors.As(err, &se) || errors.Is(err, jobstore.ErrNotFound) || errors.Is(err, jobstore.ErrNotHeld) {
				q.mu.Lock()
				delete(q.unsaved, id)
				q.mu.Unlock()
				if err == nil {
					q.metrics.finished(done)
					slog.Info("job finished: its end is recorded at last", "job", id, "state", done.State)
				}
				return
			}
			q.mu.Lock()
			q.unsaved[id] = err
			q.mu.Unlock()
		}
	})
}

// withUnsaved is j as Status tells it: a job whose end the store has not
// taken yet is still what the store says, with a summary that says why it
// has no answer yet.
func (q *Queue) withUnsaved(j *Job) *Job {
	q.mu.Lock()
	err := q.unsaved[j.ID]
	q.mu.Unlock()
	if err != nil && !j.State.Terminal() {
		j = j.Clone()
		j.Summary = fmt.Sprintf("its run is over, but its end could not be recorded in the job store yet (%v); it is answered once recorded", rootCause(err))
	}
	return j
}
