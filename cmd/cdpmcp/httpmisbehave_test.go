package main

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawRequest sends one request with the given session id ("" for none) and
// returns its status and body; the body must end (a stream held open fails).
func rawRequest(t *testing.T, method, u, session, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		t.Errorf("%s with session %q: %v", method, session, err)
		return 0, ""
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Errorf("%s with session %q: reading the answer: %v", method, session, err)
	}
	return res.StatusCode, string(b)
}

// Requests that belong to no session answer 4xx at once with a hint: GET and
// DELETE without a session 400, any request naming a session that is not open
// 404. A hundred of them at once, with a hundred connections that never finish
// their headers held open meanwhile, take no session slot: with
// --max-sessions 2, two real clients still get in and work.
func TestHTTPRequestsWithoutASession(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "no-session", "--max-sessions", "2")
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getUrl","arguments":{}}}`
	cases := []struct {
		method, session, body string
		code                  int
		want                  string
	}{
		{http.MethodGet, "", "", http.StatusBadRequest, "needs the Mcp-Session-Id header"},
		{http.MethodDelete, "", "", http.StatusBadRequest, "start one with a POST of initialize"},
		{http.MethodGet, "bogus-id", "", http.StatusNotFound, `no session "bogus-id" is open`},
		{http.MethodPost, "bogus-id", call, http.StatusNotFound, "start a new session with a POST of initialize"},
		{http.MethodDelete, "bogus-id", "", http.StatusNotFound, "no session"},
	}
	for _, tc := range cases {
		if code, body := rawRequest(t, tc.method, s.url, tc.session, tc.body); code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s with session %q: %d %q, want %d and %q", tc.method, tc.session, code, body, tc.code, tc.want)
		}
	}

	u, _ := url.Parse(s.url)
	var held []net.Conn
	for range 100 {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, "GET /mcp HTTP/1.1\r\nHost: "+u.Host+"\r\nAccept: text/event-stream\r\n"); err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			session := ""
			if i%2 == 1 {
				session = "stale-session"
			}
			if code, _ := rawRequest(t, http.MethodGet, s.url, session, ""); code != http.StatusBadRequest && code != http.StatusNotFound {
				t.Errorf("GET with session %q among a hundred: %d", session, code)
			}
		})
	}
	a, code, body := openRaw(t, s.url)
	if code != http.StatusOK {
		t.Fatalf("a real client among a hundred stray requests: %d %s", code, body)
	}
	if code, body := a.call("navigate", map[string]any{"url": site.URL("/home.html")}); code != http.StatusOK || !strings.Contains(body, `\"ok\":true`) {
		t.Errorf("navigate among stray requests: %d %s", code, body)
	}
	wg.Wait()
	b, code, body := openRaw(t, s.url)
	if code != http.StatusOK {
		t.Errorf("a second client (the second of --max-sessions 2) after the strays: %d %s", code, body)
	}
	if code, body := b.call("getUrl", nil); code != http.StatusOK {
		t.Errorf("the second client's call: %d %s", code, body)
	}
	if len(held) != 100 {
		t.Fatalf("held %d connections", len(held))
	}
}
