package jobs

import (
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
)

// TarDir and Untar let tests look into the archive a shared store keeps of
// a profile.
var TarDir, Untar = tarDir, untar

// TraceJobBrowsers has every job browser launched from now on show its CDP
// messages to t (nil: none).
func TraceJobBrowsers(t cdpconn.Tracer) { jobBrowserTracer = t }

// SpareTabs counts the scrubbed tabs the queue keeps for the next jobs.
func (q *Queue) SpareTabs() int { return q.fleet.spareTabs() }

// RetryBrowser has the queue opened with cfg try tries times to have a job's
// browser and tab, waiting backoff before the second try and twice as long
// before each next.
func RetryBrowser(cfg *Config, tries int, backoff time.Duration) {
	cfg.browserRetry = browserRetry{tries: tries, backoff: backoff}
}

// ReplayFailure is a replay's failed step as a job's failure; Describe is
// how a job's status words a failure.
var ReplayFailure, Describe = replayFailure, describe
