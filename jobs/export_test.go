package jobs

import "github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"

// TarDir and Untar let tests look into the archive a shared store keeps of
// a profile.
var TarDir, Untar = tarDir, untar

// TraceJobBrowsers has every job browser launched from now on show its CDP
// messages to t (nil: none).
func TraceJobBrowsers(t cdpconn.Tracer) { jobBrowserTracer = t }

// SpareTabs counts the scrubbed tabs the queue keeps for the next jobs.
func (q *Queue) SpareTabs() int { return q.fleet.spareTabs() }
