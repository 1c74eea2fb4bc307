package pagelog

import (
	"strings"
	"time"
)

const (
	// pollLookback is how far back before an action the page's reads are
	// looked at to tell its polls: a poll every few seconds shows twice.
	pollLookback = 10 * time.Second
	// pollRepeats is how often the page must have made a read in that time
	// for one more of it to be its poll: once is a page's first load of its
	// data, which a click may well read again.
	pollRepeats = 2
)

// Polls are the reads a page repeats on its own, as a poll of its server does
// (a status check every 300 ms, a long poll asked again as each ends): the
// same fetch or XMLHttpRequest GET (or HEAD) to the same path, whatever its
// query (a poll's cache-buster), made pollRepeats times or more in the
// pollLookback before an action. One more of them after the action's
// handlers ran is no effect of the action, as Playwright and rod leave
// long-lived connections out of their waits: it neither holds the action's
// answer open nor fills its net. The action's handlers' own requests (up to
// the mark After names) stay its own, a Refresh button reading what the page
// polls too, unless made from the very call in the page's script that makes
// the poll (a poll's timer that fired while the handlers ran, on a busy
// machine).
type Polls struct {
	reads map[string]bool
	// sites are the reads repeated from one place in the page's script: a
	// read made there is a poll even while the action's handlers run (a
	// poll's timer that fired then), where the handlers' own reads come from
	// their own code.
	sites map[string]bool
	after int
}

// Polls returns the reads the page repeated in the pollLookback before mark
// (now), counting as repeats only the requests after mark until After says
// otherwise.
func (l *Log) Polls(mark int) Polls {
	l.mu.Lock()
	defer l.mu.Unlock()
	since := time.Now().Add(-pollLookback)
	seen, seenAt := map[string]int{}, map[string]int{}
	p := Polls{after: mark}
	for i := len(l.net) - 1; i >= 0; i-- {
		e := l.net[i]
		if e.Seq > mark {
			continue
		}
		if e.Time.Before(since) {
			break
		}
		if k, ok := readKey(e); ok {
			if seen[k]++; seen[k] == pollRepeats {
				if p.reads == nil {
					p.reads = map[string]bool{}
				}
				p.reads[k] = true
			}
			if e.Site == "" {
				continue
			}
			at := k + " " + e.Site
			if seenAt[at]++; seenAt[at] == pollRepeats {
				if p.sites == nil {
					p.sites = map[string]bool{}
				}
				p.sites[at] = true
			}
		}
	}
	return p
}

// After returns the polls with the requests up to seq (those the action's
// handlers made) taken for the action's own.
func (p Polls) After(seq int) Polls {
	p.after = seq
	return p
}

// Repeat reports whether e is one more of the page's polls: a read it
// repeats, started after the action's handlers ran. A repeat that failed
// (the server answered ≥ 400, the connection broke) is still one, for the
// wait; the answer's net keeps it (Polls.Noise).
func (p Polls) Repeat(e NetworkEntry) bool {
	if len(p.reads) == 0 {
		return false
	}
	k, ok := readKey(&e)
	if !ok {
		return false
	}
	if e.Seq <= p.after {
		// Made while the handlers ran: theirs, unless it comes from where
		// the page's poll is made.
		return e.Site != "" && p.sites[k+" "+e.Site]
	}
	return p.reads[k]
}

// Noise reports whether e is a repeat of a poll that says nothing: answered
// below 400, still waiting, or dropped by the page (ERR_ABORTED). A poll
// that failed says the server is in trouble, and is kept.
func (p Polls) Noise(e NetworkEntry) bool {
	failed := e.Status >= 400 || e.Blocked != "" || e.Failed != "" && e.Failed != "net::ERR_ABORTED"
	return !failed && p.Repeat(e)
}

// readKey is what makes two of the page's reads the same: method, and URL
// without query or fragment. Only fetch and XMLHttpRequest reads have one.
func readKey(e *NetworkEntry) (string, bool) {
	if e.Type != "Fetch" && e.Type != "XHR" || e.Method != "GET" && e.Method != "HEAD" {
		return "", false
	}
	u, _, _ := strings.Cut(e.URL, "#")
	u, _, _ = strings.Cut(u, "?")
	return e.Method + " " + u, true
}
