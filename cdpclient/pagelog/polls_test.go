package pagelog

import (
	"fmt"
	"testing"
)

// A read the page made twice before an action (whatever its query) is its
// poll: one more after the action's handlers ran is a repeat; the handlers'
// own read, a read made once before (the page's first load of its data), a
// POST, another path and a script are not.
func TestPollsTellRepeats(t *testing.T) {
	l := New()
	n := 0
	req := func(method, typ, url string) NetworkEntry {
		n++
		feed(l, fmt.Sprintf(`{"method":"Network.requestWillBeSent","params":{"requestId":"r%d","type":%q,"request":{"url":%q,"method":%q,"isSameSite":true}}}`,
			n, typ, url, method))
		all := l.Network(0)
		return all[len(all)-1]
	}
	req("GET", "Fetch", "http://a.test/status?t=1")
	req("GET", "XHR", "http://a.test/status?t=2")
	req("GET", "Fetch", "http://a.test/items")
	polls := l.Polls(l.Mark())
	own := req("GET", "Fetch", "http://a.test/status?t=refresh")
	polls = polls.After(l.Mark())
	for _, c := range []struct {
		e    NetworkEntry
		want bool
	}{
		{own, false},
		{req("GET", "Fetch", "http://a.test/status?t=3"), true},
		{req("GET", "Fetch", "http://a.test/status#x"), true},
		{req("GET", "Fetch", "http://a.test/items?page=2"), false},
		{req("POST", "Fetch", "http://a.test/status"), false},
		{req("GET", "Script", "http://a.test/status"), false},
		{req("GET", "Fetch", "http://a.test/other"), false},
	} {
		if got := polls.Repeat(c.e); got != c.want {
			t.Errorf("Repeat(%s %s, seq %d) = %v, want %v", c.e.Method, c.e.URL, c.e.Seq, got, c.want)
		}
	}
	if (Polls{}).Repeat(own) {
		t.Error("no polls, yet a repeat")
	}
}

// A poll's timer that fires while the action's handlers run makes its read
// from the poll's own call: it is a repeat, where a handler reading the same
// path from its own code is the action's.
func TestPollsTellTheirCallSite(t *testing.T) {
	l := New()
	n := 0
	req := func(url string, line int) NetworkEntry {
		n++
		feed(l, fmt.Sprintf(`{"method":"Network.requestWillBeSent","params":{"requestId":"r%d","type":"Fetch","request":{"url":%q,"method":"GET","isSameSite":true},`+
			`"initiator":{"type":"script","stack":{"callFrames":[{"url":"http://a.test/","lineNumber":%d,"columnNumber":22}]}}}}`, n, url, line))
		all := l.Network(0)
		return all[len(all)-1]
	}
	req("http://a.test/ping?t=1", 15)
	req("http://a.test/ping?t=2", 15)
	polls := l.Polls(l.Mark())
	timer := req("http://a.test/ping?t=3", 15)   // the poll's timer, during the handlers
	handler := req("http://a.test/ping?t=r", 25) // the Refresh handler's own read
	polls = polls.After(l.Mark())
	if !polls.Repeat(timer) {
		t.Errorf("a read from the poll's call, made while the handlers ran, is not a repeat: %+v", timer)
	}
	if polls.Repeat(handler) {
		t.Errorf("the handler's own read of the polled path is taken for a repeat: %+v", handler)
	}
}
