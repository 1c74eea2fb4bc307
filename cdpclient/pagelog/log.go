package pagelog

import (
	"net/url"
	"strings"
	"sync"
	"time"
)

const (
	maxConsoleEntries = 500
	maxNetworkEntries = 1000
)

// ConsoleEntry is one console message or uncaught exception of a page.
type ConsoleEntry struct {
	Seq    int
	Time   time.Time
	Level  string // "error", "warning", "info", "log", "debug"
	Text   string
	Source string // url:line when known
	// Exception is set for uncaught exceptions.
	Exception bool
	// Network is set for the browser's reports of failed loads ("Failed to
	// load resource"): the network log has them already.
	Network bool
}

// NetworkEntry is one request of a page. A redirect ends one entry (with the
// redirect's status) and starts another.
type NetworkEntry struct {
	Seq     int
	ID      string
	Time    time.Time
	Method  string
	URL     string
	Type    string // Document, XHR, Fetch, Script, …
	Status  int
	MIME    string // the response's MIME type
	Failed  string // error text when the request failed
	Blocked string // blocked reason, if the browser blocked it
	Done    bool
	Loader  string
	Frame   string // the frame that made the request
	// Site is where the page's script asked for it (url:line:column of the
	// call), when a script did.
	Site string
	// SameSite: the request goes to the main frame's site (the browser's
	// word), not to another one's (analytics, ads, embeds).
	SameSite bool
	Duration time.Duration
	// Answered is when the request was last heard of: its response, then
	// the end of its body (or its failure); zero before its response.
	Answered time.Time
}

// Log keeps the recent console messages and requests of a page and its frames.
// Its methods may be called concurrently.
type Log struct {
	mu       sync.Mutex
	seq      int
	reported int // console entries up to here were in some feedback
	console  []ConsoleEntry
	net      []*NetworkEntry
	open     map[string]*NetworkEntry // by request id, until done

	refused     map[string]string // URL → why the origin rules refused it (refused.go)
	lastRefusal string
}

// New returns an empty log.
func New() *Log {
	return &Log{open: map[string]*NetworkEntry{}}
}

func (l *Log) addConsole(e ConsoleEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	e.Seq = l.seq
	e.Time = time.Now()
	if len(l.console) >= maxConsoleEntries {
		l.console = append(l.console[:0], l.console[len(l.console)-maxConsoleEntries/2:]...)
	}
	l.console = append(l.console, e)
}

// Mark returns the current sequence number: entries added later have a larger Seq.
func (l *Log) Mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// Console returns the console entries with Seq > since.
func (l *Log) Console(since int) []ConsoleEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []ConsoleEntry
	for _, e := range l.console {
		if e.Seq > since {
			out = append(out, e)
		}
	}
	return out
}

// Network returns copies of the requests with Seq > since.
func (l *Log) Network(since int) []NetworkEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []NetworkEntry
	for _, e := range l.net {
		if e.Seq > since {
			out = append(out, *e)
		}
	}
	return out
}

// Pending counts requests that started after since and have no response yet.
// A response whose body the page never reads never "finishes", so an answered
// request does not count.
func (l *Log) Pending(since int) int { return l.PendingBut(since, Polls{}) }

// PendingBut is Pending leaving out the page's polls (a long poll its server
// holds open is no request an action waits for).
func (l *Log) PendingBut(since int, polls Polls) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.open {
		// Streams never finish; blob: and data: loads are local and may
		// never report an end; the tab's icon is the browser's own fetch,
		// made after the load, which no page waits for.
		if e.Seq > since && e.Status == 0 && e.Type != "EventSource" && e.Type != "WebSocket" &&
			!strings.HasPrefix(e.URL, "blob:") && !strings.HasPrefix(e.URL, "data:") && !browserIcon(e) &&
			!polls.Repeat(*e) {
			n++
		}
	}
	return n
}

// Answered reports whether request id has had its response (or has ended):
// false while it waits for its server, and for a request not seen.
func (l *Log) Answered(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.open[id]; e != nil {
		return !e.Answered.IsZero()
	}
	for i := len(l.net) - 1; i >= 0; i-- {
		if l.net[i].ID == id {
			return true
		}
	}
	return false
}

// Calls is what became of the page's own calls (fetch and XMLHttpRequest)
// that started after a mark (Log.Calls).
type Calls struct {
	// Started counts the calls that started up to the second mark given to
	// Calls; Later the ones that started after it.
	Started, Later int
	// LastAnswer is when the last of them was answered, its body done or
	// failed (NetworkEntry.Answered); zero while none was.
	LastAnswer time.Time
}

// Calls reports the page's own calls (fetch and XMLHttpRequest to its own
// site: the requests whose answers its script handles; another site's are
// analytics and the like) that started after since, telling those up to upto
// from later ones. The page's polls are not its calls: their answers come
// on a timer, whatever the action did.
func (l *Log) Calls(since, upto int, polls Polls) Calls {
	l.mu.Lock()
	defer l.mu.Unlock()
	var c Calls
	for i := len(l.net) - 1; i >= 0 && l.net[i].Seq > since; i-- {
		e := l.net[i]
		if e.Type != "Fetch" && e.Type != "XHR" || !e.SameSite || polls.Repeat(*e) {
			continue
		}
		if e.Seq <= upto {
			c.Started++
		} else {
			c.Later++
		}
		if e.Answered.After(c.LastAnswer) {
			c.LastAnswer = e.Answered
		}
	}
	return c
}

// Reported returns the console sequence number up to which errors have been
// reported in feedback; later ones go into the next feedback.
func (l *Log) Reported() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reported
}

// MarkReported records that every console entry so far was reported.
func (l *Log) MarkReported() {
	l.mu.Lock()
	l.reported = l.seq
	l.mu.Unlock()
}

// browserIcon reports whether a request is the browser fetching the tab's
// icon (/favicon.ico, of no type a page's own requests have).
func browserIcon(e *NetworkEntry) bool {
	if e.Type != "Other" {
		return false
	}
	u, err := url.Parse(e.URL)
	return err == nil && u.Path == "/favicon.ico"
}
