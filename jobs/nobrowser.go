package jobs

import (
	"errors"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// A worker of a fleet (a shared store) whose browser is gone for good (its
// launch failed with no file at the path, no browser on PATH, and the
// lookup still finds none) stops claiming: each job it claimed would fail
// at once, as fast as it could claim them, draining the queue the fleet's
// other workers run. The job that found out fails, saying what to fix and
// that resubmitting is safe; the worker takes jobs again once the browser
// is there, looked up each time it would claim. On one machine (SQLite)
// there is no other worker: each job fails at once, saying what to fix.
// (cmd/cdpmcp's fleetbrowser.go keeps a process with no browser at its
// start from taking jobs at all.)

// noteBrowserGone is told of every failure to have a job's browser and tab.
func (q *Queue) noteBrowserGone(err error) {
	var le *browserproc.LaunchError
	if !q.store.Shared() || !q.launchesHere() || !errors.As(err, &le) || !le.Permanent {
		return
	}
	if _, lookup := browserproc.FindHeadlessAt(q.cfg.Browser.Launch.Path); lookup == nil {
		return // a profile's browser (the full one) only, or there again
	}
	why := "no browser to launch: " + feedback.Truncate(le.Err.Error(), 200)
	q.mu.Lock()
	gone := q.browserGone != ""
	q.browserGone = why
	q.mu.Unlock()
	if !gone {
		slog.Error("no browser to launch here: this worker takes no more jobs until there is one; the fleet's other workers run them", "err", err)
		q.renewSoon() // the fleet's job statuses say why
	}
}

// mayClaim says whether the worker may claim jobs: yes, unless its browser
// is gone and still cannot be found.
func (q *Queue) mayClaim() bool {
	q.mu.Lock()
	gone := q.browserGone != ""
	q.mu.Unlock()
	if !gone {
		return true
	}
	if _, err := browserproc.FindHeadlessAt(q.cfg.Browser.Launch.Path); err != nil {
		return false
	}
	q.mu.Lock()
	q.browserGone = ""
	q.mu.Unlock()
	slog.Info("the browser is there again: this worker takes jobs")
	q.renewSoon()
	return true
}

// paused says why this worker claims no jobs now ("" while it does).
func (q *Queue) paused() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.draining && q.browserGone == "" {
		return "stopping (told to by a signal): it takes no new jobs and lets those it runs finish"
	}
	return q.browserGone
}

// launchesHere says whether jobs without a profile run in a browser this
// process launches (not at --cdp-endpoint or a browser service).
func (q *Queue) launchesHere() bool {
	return len(q.cfg.Endpoints) == 0 && q.cfg.Browser.Endpoint == ""
}
