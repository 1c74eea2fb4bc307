package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
)

// A job's browser and first tab are had before its task starts, and a
// failure to have them is not the job's: a machine too busy to start
// Chromium in time, a tab whose set-up timed out, a browser service that
// refused a connection. The job then stays DISPATCHED, held by this worker,
// and tries again after a backoff (doubled each time), a bounded number of
// times so that a machine that never starts a browser does not keep it for
// ever; its summary says that it waits and why. Its attempt is counted only
// once its task starts, so the tries spend none of its runs (maxRuns), and
// its time limit starts with its tab. When the tries are spent it ends
// FAILED BROWSER_UNAVAILABLE saying what failed, how often and for how long.

// browserRetry says how often a job tries to have its browser and tab.
type browserRetry struct {
	tries   int           // attempts, the first included
	backoff time.Duration // the wait before the second; doubled before each next
}

// defaultBrowserRetry gives a busy machine about a quarter of a minute of
// waits between four starts, each of which may itself wait up to
// browserproc.DefaultStartTimeout for a browser that runs.
var defaultBrowserRetry = browserRetry{tries: 4, backoff: 2 * time.Second}

// jobTab is what a job runs on: its browser context, lent by the fleet, the
// tab it starts in, and the context's tab count before that tab (for
// watchTabs).
type jobTab struct {
	l    *lease
	page *cdpclient.Page
	seq  int
}

// release gives the context back, closing the tab: the job did not run.
func (t *jobTab) release() {
	_ = closeTab(t.page)
	t.l.done(nil)
}

// closeTab closes a job's tab, giving it a few seconds.
func closeTab(p *cdpclient.Page) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return p.Close(ctx)
}

// unavailableError is a browser or tab that could not be had for a job.
type unavailableError struct {
	what string // "start the jobs' browser", "open a tab"
	err  error
}

func (e *unavailableError) Error() string { return e.what + ": " + e.err.Error() }
func (e *unavailableError) Unwrap() error { return e.err }

// acquire has j's browser context and first tab, trying again after a
// backoff while they cannot be had (see above). Its error is ctx's when ctx
// ended (the job cancelled, the server closing), else why the job fails.
func (q *Queue) acquire(ctx context.Context, r *run, j *Job) (*jobTab, error) {
	p := q.cfg.browserRetry
	if p.tries <= 0 {
		p = defaultBrowserRetry
	}
	start, wait := time.Now(), p.backoff
	for try := 1; ; try++ {
		t, err := q.openTab(ctx, j)
		if err == nil {
			if try > 1 {
				slog.Info("job has its browser and tab at last", "job", j.ID, "try", try)
			}
			return t, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !retryable(err) {
			return nil, err
		}
		why := cdpclient.Classify(err).Msg
		if try >= p.tries {
			return nil, gaveUp(try, time.Since(start), err)
		}
		q.metrics.browserRetries.Add(1)
		slog.Warn("job's browser or tab unavailable: trying again", "job", j.ID, "try", try, "of", p.tries, "in", wait, "err", err)
		_, _ = r.update(ctx, []State{Dispatched, Running}, func(j *Job) {
			j.Summary = fmt.Sprintf("waiting for a browser: %s; trying again in %s (try %d of %d); the job has not started", why, wait, try+1, p.tries)
		})
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// openTab has j's browser context from the fleet and opens its first tab
// (or takes the scrubbed one an earlier job left).
func (q *Queue) openTab(ctx context.Context, j *Job) (*jobTab, error) {
	l, err := q.fleet.context(ctx, j.Tenant, j.Profile)
	if err != nil {
		return nil, err
	}
	l.bc.UseSecrets(q.secretsOf(j.Tenant))
	t := &jobTab{l: l, page: l.tab, seq: l.bc.Seq()}
	if t.page == nil {
		if t.page, err = l.bc.NewPage(ctx); err != nil {
			l.done(nil)
			return nil, &unavailableError{what: "open a tab", err: err}
		}
	}
	return t, nil
}

// retryable reports whether trying again may have the browser or tab that
// err says could not be had: not when cdpmcp is closing, nor when only a
// change of flags can help (no browser at --browser-path, an endpoint that
// can never work).
func retryable(err error) bool {
	var (
		ue *unavailableError
		le *browserproc.LaunchError
		se *browserproc.SetupError
	)
	switch {
	case !errors.As(err, &ue), errors.Is(err, cdpclient.ErrBrowserClosed):
		return false
	case errors.As(err, &le):
		return !le.Permanent
	case errors.As(err, &se):
		return !se.Permanent
	}
	return true
}

// gaveUp is a job's failure once its tries to have a browser and a tab are
// spent: it never started, so submitting it again is safe.
func gaveUp(tries int, took time.Duration, last error) error {
	c := cdpclient.Classify(last)
	hint := "the job never started: submitting it again (with a new correlationId) is safe once a browser starts on this machine"
	if c.Code == cdpclient.CodeBrowserUnavailable && c.Hint != "" {
		hint = c.Hint + "; " + hint
	}
	return &cdpclient.Error{Code: cdpclient.CodeBrowserUnavailable, Err: last, Hint: hint,
		Msg: fmt.Sprintf("no browser and tab could be had for the job in %d tries over %s, so its task never started; the last try: %s", tries, took.Round(100*time.Millisecond), c.Msg)}
}
