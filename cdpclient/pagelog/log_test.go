package pagelog

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// feed hands the log events as the browser words them.
func feed(l *Log, events ...string) {
	for _, ev := range events {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(ev), &m); err != nil {
			panic(ev + ": " + err.Error())
		}
		l.OnEvent(m.Method, m.Params)
	}
}

func TestConsoleEntries(t *testing.T) {
	l := New()
	feed(l,
		`{"method":"Runtime.consoleAPICalled","params":{"type":"warning","args":[{"type":"string","value":"low"},{"type":"number","value":3},{"type":"object","description":"Object"}],"stackTrace":{"callFrames":[{"url":"http://127.0.0.1/a.js","lineNumber":9}]}}}`,
		`{"method":"Runtime.consoleAPICalled","params":{"type":"assert","args":[{"type":"undefined"}]}}`,
		`{"method":"Runtime.exceptionThrown","params":{"exceptionDetails":{"text":"Uncaught","url":"http://127.0.0.1/b.js","lineNumber":4,"exception":{"type":"object","description":"Error: boom"}}}}`,
		`{"method":"Log.entryAdded","params":{"entry":{"source":"network","level":"error","text":"Failed to load resource","url":"http://127.0.0.1/missing.png"}}}`,
		`{"method":"Log.entryAdded","params":{"entry":{"source":"network","level":"error","text":"Failed to load resource","url":"http://127.0.0.1/favicon.ico"}}}`,
		`{"method":"Runtime.consoleAPICalled","params":"not an object"}`,
		`{"method":"Page.frameNavigated","params":{}}`,
	)
	got := l.Console(0)
	want := []ConsoleEntry{
		{Seq: 1, Level: "warning", Text: "low 3 Object", Source: "http://127.0.0.1/a.js:10"},
		{Seq: 2, Level: "error", Text: "undefined"},
		{Seq: 3, Level: "error", Text: "Uncaught Error: boom", Source: "http://127.0.0.1/b.js:5", Exception: true},
		{Seq: 4, Level: "error", Text: "Failed to load resource", Source: "http://127.0.0.1/missing.png", Network: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Time.IsZero() {
			t.Errorf("entry %d has no time", i)
		}
		got[i].Time = want[i].Time
		if got[i] != want[i] {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if after := l.Console(2); len(after) != 2 || after[0].Seq != 3 {
		t.Errorf("Console(2) = %+v, want the entries after the mark", after)
	}
	if l.Reported() != 0 {
		t.Errorf("Reported before any feedback = %d", l.Reported())
	}
	l.MarkReported()
	if l.Reported() != l.Mark() || l.Mark() != 4 {
		t.Errorf("after MarkReported: Reported %d, Mark %d; want 4", l.Reported(), l.Mark())
	}
}

func TestNetworkEntries(t *testing.T) {
	l := New()
	sent := func(id, url, typ string, redirect int) string {
		r := ""
		if redirect != 0 {
			r = fmt.Sprintf(`,"redirectResponse":{"status":%d,"mimeType":""}`, redirect)
		}
		return fmt.Sprintf(`{"method":"Network.requestWillBeSent","params":{"requestId":%q,"loaderId":"L1","frameId":"F1","request":{"url":%q,"method":"GET"},"type":%q%s}}`, id, url, typ, r)
	}
	feed(l,
		sent("1", "http://127.0.0.1/old", "Document", 0),
		sent("1", "http://127.0.0.1/new", "Document", 302),
		`{"method":"Network.responseReceived","params":{"requestId":"1","response":{"status":200,"mimeType":"text/html"}}}`,
		`{"method":"Network.loadingFinished","params":{"requestId":"1"}}`,
		sent("2", "http://127.0.0.1/api", "Fetch", 0),
		`{"method":"Network.loadingFailed","params":{"requestId":"2","errorText":"","canceled":true}}`,
		sent("3", "http://127.0.0.1/blocked.js", "Script", 0),
		`{"method":"Network.loadingFailed","params":{"requestId":"3","errorText":"net::ERR_BLOCKED_BY_CLIENT","blockedReason":"inspector"}}`,
	)
	mark := l.Mark()
	feed(l,
		sent("4", "http://127.0.0.1/slow", "XHR", 0),     // waiting: pending
		sent("5", "http://127.0.0.1/answered", "XHR", 0), // answered, body unread: not pending
		`{"method":"Network.responseReceived","params":{"requestId":"5","response":{"status":200,"mimeType":"application/json"}}}`,
		sent("6", "http://127.0.0.1/events", "EventSource", 0),                  // a stream never ends
		sent("7", "data:text/plain,hi", "Other", 0),                             // local
		`{"method":"Network.loadingFinished","params":{"requestId":"unknown"}}`, // not ours
		sent("8", "http://127.0.0.1/favicon.ico", "Other", 0),                   // the browser's own icon fetch
		sent("9", "http://127.0.0.1/favicon.ico", "Fetch", 0),                   // the page's: pending
	)

	all := l.Network(0)
	if len(all) != 10 {
		t.Fatalf("got %d requests, want 10: %+v", len(all), all)
	}
	old, doc, api, blocked := all[0], all[1], all[2], all[3]
	if old.URL != "http://127.0.0.1/old" || old.Status != 302 || !old.Done || old.ID != "1" {
		t.Errorf("the redirected request: %+v", old)
	}
	if doc.URL != "http://127.0.0.1/new" || doc.Status != 200 || doc.MIME != "text/html" || !doc.Done ||
		doc.Loader != "L1" || doc.Frame != "F1" || doc.Method != "GET" || doc.Type != "Document" {
		t.Errorf("the document after the redirect: %+v", doc)
	}
	if api.Failed != "canceled" || !api.Done {
		t.Errorf("the canceled fetch: %+v", api)
	}
	if blocked.Failed != "net::ERR_BLOCKED_BY_CLIENT" || blocked.Blocked != "inspector" {
		t.Errorf("the blocked script: %+v", blocked)
	}
	if n := l.Pending(mark); n != 2 {
		t.Errorf("Pending since the mark = %d, want 2 (the unanswered XHR and the page's fetch of its icon)", n)
	}
	if n := l.Pending(l.Mark()); n != 0 {
		t.Errorf("Pending since now = %d, want 0", n)
	}
	if after := l.Network(mark); len(after) != 6 || after[0].URL != "http://127.0.0.1/slow" {
		t.Errorf("Network(mark) = %+v, want the six requests after it", after)
	}
	// Entries are copies: changing one changes nothing in the log.
	all[1].Status = 500
	if l.Network(0)[1].Status != 200 {
		t.Error("a caller's change to an entry reached the log")
	}
}

// The log keeps the newest entries: at the limit it drops the older half.
func TestLogsKeepTheNewest(t *testing.T) {
	l := New()
	for i := range maxConsoleEntries + 1 {
		feed(l, fmt.Sprintf(`{"method":"Runtime.consoleAPICalled","params":{"type":"log","args":[{"type":"number","value":%d}]}}`, i))
	}
	c := l.Console(0)
	if len(c) != maxConsoleEntries/2+1 || c[len(c)-1].Text != fmt.Sprint(maxConsoleEntries) || c[0].Text != fmt.Sprint(maxConsoleEntries/2) {
		t.Errorf("after %d console entries: %d kept, %q … %q", maxConsoleEntries+1, len(c), c[0].Text, c[len(c)-1].Text)
	}
	for i := range maxNetworkEntries + 1 {
		feed(l, fmt.Sprintf(`{"method":"Network.requestWillBeSent","params":{"requestId":"r%d","request":{"url":"http://127.0.0.1/%d","method":"GET"},"type":"Image"}}`, i, i))
	}
	n := l.Network(0)
	if len(n) != maxNetworkEntries/2+1 || n[len(n)-1].URL != fmt.Sprintf("http://127.0.0.1/%d", maxNetworkEntries) {
		t.Errorf("after %d requests: %d kept, the last %q", maxNetworkEntries+1, len(n), n[len(n)-1].URL)
	}
}

// Calls counts the page's own calls to its own site, before and after a
// mark, and when the last was answered: not a script, not another site's
// call (analytics), not one before since.
func TestCalls(t *testing.T) {
	l := New()
	req := func(id, typ string, same bool) string {
		return fmt.Sprintf(`{"method":"Network.requestWillBeSent","params":{"requestId":%q,"type":%q,"request":{"url":"http://127.0.0.1/%s","method":"GET","isSameSite":%v}}}`, id, typ, id, same)
	}
	feed(l, req("early", "Fetch", true))
	since := l.Mark()
	feed(l, req("api", "Fetch", true), req("xhr", "XHR", true), req("ga", "Fetch", false), req("js", "Script", true))
	upto := l.Mark()
	if c := l.Calls(since, upto, Polls{}); c.Started != 2 || c.Later != 0 || !c.LastAnswer.IsZero() {
		t.Errorf("before any answer: %+v", c)
	}
	feed(l, `{"method":"Network.responseReceived","params":{"requestId":"api","response":{"status":200}}}`, req("next", "Fetch", true))
	c := l.Calls(since, upto, Polls{})
	if c.Started != 2 || c.Later != 1 || c.LastAnswer.IsZero() {
		t.Errorf("after an answer and a later call: %+v", c)
	}
	time.Sleep(time.Millisecond)
	feed(l, `{"method":"Network.loadingFinished","params":{"requestId":"api"}}`)
	if d := l.Calls(since, upto, Polls{}); !d.LastAnswer.After(c.LastAnswer) {
		t.Errorf("the end of the body is not the last word: %v then %v", c.LastAnswer, d.LastAnswer)
	}
}

// A request is answered once its response came (or it ended); one that was
// redirected waits again for the next server.
func TestAnswered(t *testing.T) {
	l := New()
	if l.Answered("L1") {
		t.Error("a request not seen is answered")
	}
	feed(l, `{"method":"Network.requestWillBeSent","params":{"requestId":"L1","loaderId":"L1","type":"Document","request":{"url":"http://a.test/slow","method":"GET"}}}`)
	if l.Answered("L1") {
		t.Error("a request with no response is answered")
	}
	feed(l, `{"method":"Network.requestWillBeSent","params":{"requestId":"L1","loaderId":"L1","type":"Document","request":{"url":"http://a.test/next","method":"GET"},"redirectResponse":{"status":302}}}`)
	if l.Answered("L1") {
		t.Error("a redirected request is answered before the next server answered")
	}
	feed(l, `{"method":"Network.responseReceived","params":{"requestId":"L1","response":{"status":200,"mimeType":"text/html"}}}`)
	if !l.Answered("L1") {
		t.Error("a request with its response is not answered")
	}
	feed(l, `{"method":"Network.loadingFinished","params":{"requestId":"L1"}}`)
	if !l.Answered("L1") {
		t.Error("a finished request is not answered")
	}
}
