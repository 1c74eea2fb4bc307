package cdpclient

import (
	"encoding/json"
	"strconv"
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
	Seq      int
	ID       string
	Time     time.Time
	Method   string
	URL      string
	Type     string // Document, XHR, Fetch, Script, …
	Status   int
	MIME     string // the response's MIME type
	Failed   string // error text when the request failed
	Blocked  string // blocked reason, if the browser blocked it
	Done     bool
	Loader   string
	Frame    string // the frame that made the request
	Duration time.Duration
}

// pageLogs keeps the recent console messages and requests of a page and its frames.
type pageLogs struct {
	mu       sync.Mutex
	seq      int
	reported int // console entries up to here were in some feedback
	console  []ConsoleEntry
	net      []*NetworkEntry
	open     map[string]*NetworkEntry // by request id, until done
}

func newPageLogs() pageLogs {
	return pageLogs{open: map[string]*NetworkEntry{}}
}

type remoteValue struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	Value       json.RawMessage `json:"value"`
	Description string          `json:"description"`
}

func (v remoteValue) String() string {
	if v.Type == "string" {
		var s string
		if json.Unmarshal(v.Value, &s) == nil {
			return s
		}
	}
	if len(v.Value) > 0 {
		return string(v.Value)
	}
	if v.Description != "" {
		return v.Description
	}
	return v.Type
}

type stackTrace struct {
	CallFrames []struct {
		URL        string `json:"url"`
		LineNumber int    `json:"lineNumber"`
	} `json:"callFrames"`
}

func (s *stackTrace) source() string {
	if s == nil || len(s.CallFrames) == 0 || s.CallFrames[0].URL == "" {
		return ""
	}
	return s.CallFrames[0].URL + ":" + strconv.Itoa(s.CallFrames[0].LineNumber+1)
}

func (l *pageLogs) onEvent(method string, params json.RawMessage) {
	switch method {
	case "Runtime.consoleAPICalled":
		var ev struct {
			Type       string        `json:"type"`
			Args       []remoteValue `json:"args"`
			StackTrace *stackTrace   `json:"stackTrace"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		parts := make([]string, len(ev.Args))
		for i, a := range ev.Args {
			parts[i] = a.String()
		}
		l.addConsole(ConsoleEntry{Level: consoleLevel(ev.Type), Text: strings.Join(parts, " "), Source: ev.StackTrace.source()})
	case "Runtime.exceptionThrown":
		var ev struct {
			Details struct {
				Text       string       `json:"text"`
				URL        string       `json:"url"`
				LineNumber int          `json:"lineNumber"`
				Exception  *remoteValue `json:"exception"`
				StackTrace *stackTrace  `json:"stackTrace"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		d := ev.Details
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text = "Uncaught " + d.Exception.Description
		} else if d.Exception != nil {
			text = "Uncaught " + d.Exception.String()
		}
		src := d.StackTrace.source()
		if src == "" && d.URL != "" {
			src = d.URL + ":" + strconv.Itoa(d.LineNumber+1)
		}
		l.addConsole(ConsoleEntry{Level: "error", Text: text, Source: src, Exception: true})
	case "Log.entryAdded":
		var ev struct {
			Entry struct {
				Source     string `json:"source"`
				Level      string `json:"level"`
				Text       string `json:"text"`
				URL        string `json:"url"`
				LineNumber *int   `json:"lineNumber"`
			} `json:"entry"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		e := ev.Entry
		if strings.HasSuffix(e.URL, "/favicon.ico") {
			return // the browser's own request, not the page's
		}
		src := e.URL
		if src != "" && e.LineNumber != nil {
			src += ":" + strconv.Itoa(*e.LineNumber+1)
		}
		l.addConsole(ConsoleEntry{Level: consoleLevel(e.Level), Text: e.Text, Source: src, Network: e.Source == "network"})
	default:
		l.onNetworkEvent(method, params)
	}
}

func consoleLevel(t string) string {
	switch t {
	case "error", "assert":
		return "error"
	case "warning", "warn":
		return "warning"
	case "info":
		return "info"
	case "debug", "verbose":
		return "debug"
	}
	return "log"
}

func (l *pageLogs) addConsole(e ConsoleEntry) {
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
func (l *pageLogs) Mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// Console returns the console entries with Seq > since.
func (l *pageLogs) Console(since int) []ConsoleEntry {
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
func (l *pageLogs) Network(since int) []NetworkEntry {
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
func (l *pageLogs) Pending(since int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.open {
		// Streams never finish; blob: and data: loads are local and may
		// never report an end.
		if e.Seq > since && e.Status == 0 && e.Type != "EventSource" && e.Type != "WebSocket" &&
			!strings.HasPrefix(e.URL, "blob:") && !strings.HasPrefix(e.URL, "data:") {
			n++
		}
	}
	return n
}

// ConsoleEntries returns the page's recent console messages, oldest first.
func (p *Page) ConsoleEntries() []ConsoleEntry { return p.logs.Console(0) }

// NetworkEntries returns the page's recent requests, oldest first.
func (p *Page) NetworkEntries() []NetworkEntry { return p.logs.Network(0) }

// errorsReported returns the console sequence number up to which errors have
// been reported in feedback; later ones go into the next feedback.
func (p *Page) errorsReported() int {
	p.logs.mu.Lock()
	defer p.logs.mu.Unlock()
	return p.logs.reported
}

func (p *Page) markErrorsReported() {
	p.logs.mu.Lock()
	p.logs.reported = p.logs.seq
	p.logs.mu.Unlock()
}
