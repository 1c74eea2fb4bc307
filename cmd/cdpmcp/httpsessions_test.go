package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// rawSession speaks MCP over HTTP by hand, so a test sees status codes and
// bodies exactly as a client would.
type rawSession struct {
	t   *testing.T
	url string
	id  string
	seq int
}

// rawPost sends one JSON-RPC message with the session's id and returns the
// status and body (an SSE answer is returned as its raw text).
func (s *rawSession) post(body string) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := (&http.Client{Timeout: testbound.Bound()}).Do(req)
	if err != nil {
		s.t.Fatalf("POST: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if s.id == "" {
		s.id = res.Header.Get("Mcp-Session-Id")
	}
	return res.StatusCode, string(b)
}

// openRaw initializes a session; it returns the status and body of the
// initialize answer (the session id is kept when it succeeded).
func openRaw(t *testing.T, url string) (*rawSession, int, string) {
	t.Helper()
	s := &rawSession{t: t, url: url}
	code, body := s.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if code == http.StatusOK {
		s.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	return s, code, body
}

// call runs a tool and returns the status and body.
func (s *rawSession) call(tool string, args map[string]any) (int, string) {
	s.t.Helper()
	s.seq++
	a, _ := json.Marshal(args)
	return s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, s.seq, tool, a))
}

// Sessions over HTTP are bounded: beyond --max-sessions an initialize gets 503
// with the reason; beyond --max-session-streams a request gets 429 while the
// session's other calls and other sessions go on. The idle timeout is far
// beyond the test's run, so no session ends under it.
func TestHTTPSessionLimits(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "limits", "--max-sessions", "2", "--max-session-streams", "2", "--session-idle-timeout", "1h")
	a, code, body := openRaw(t, s.url)
	if code != http.StatusOK || a.id == "" {
		t.Fatalf("first session: %d %s", code, body)
	}
	a.call("navigate", map[string]any{"url": site.URL("/home.html")}) // starts the browser
	b, code, body := openRaw(t, s.url)
	if code != http.StatusOK {
		t.Fatalf("second session: %d %s", code, body)
	}
	b.call("navigate", map[string]any{"url": site.URL("/second.html")})
	if _, code, body := openRaw(t, s.url); code != http.StatusServiceUnavailable || !strings.Contains(body, "--max-sessions") {
		t.Errorf("third session: %d %q, want 503 naming --max-sessions", code, body)
	}
	dt := dialDevTools(t, s.marker)
	if n := dt.contexts(); n != 2 {
		t.Fatalf("%d browser contexts for two sessions", n)
	}

	// Two calls in flight in A (until the test hangs up); a third is
	// refused, B is unaffected.
	hangUp := a.hold(2)
	testbound.Until(t, "a third request in A to get 429", func() bool {
		code, _ := a.call("getUrl", nil)
		return code == http.StatusTooManyRequests
	})
	if code, body := a.call("getUrl", nil); code != http.StatusTooManyRequests || !strings.Contains(body, "--max-session-streams") {
		t.Errorf("a third request in A: %d %q, want 429 naming --max-session-streams", code, body)
	}
	if code, body := b.call("getUrl", nil); code != http.StatusOK || !strings.Contains(body, "second.html") {
		t.Errorf("B while A is full: %d %s", code, body)
	}
	hangUp()
	testbound.Until(t, "A to be served once its calls ended", func() bool {
		code, _ := a.call("getUrl", nil)
		return code == http.StatusOK
	})
}

// A session idle for longer than --session-idle-timeout ends, its browser
// context closes, its next request gets 404 with the reason, and its slot
// frees up. A busy session does not expire: B holds a call open throughout.
func TestHTTPSessionIdleTimeout(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "idle", "--max-sessions", "2", "--session-idle-timeout", "2s")
	b, code, body := openRaw(t, s.url)
	if code != http.StatusOK {
		t.Fatalf("B's session: %d %s", code, body)
	}
	b.call("navigate", map[string]any{"url": site.URL("/second.html")}) // starts the browser
	defer b.hold(1)()
	a, code, body := openRaw(t, s.url)
	if code != http.StatusOK || a.id == "" {
		t.Fatalf("A's session: %d %s", code, body)
	}
	a.call("navigate", map[string]any{"url": site.URL("/home.html")})
	dt := dialDevTools(t, s.marker)
	testbound.Until(t, "A's browser context to close once A idled", func() bool { return dt.contexts() == 1 })
	if code, body := a.call("getUrl", nil); code != http.StatusNotFound || !strings.Contains(body, "--session-idle-timeout") {
		t.Errorf("A after it ended: %d %q, want 404 naming --session-idle-timeout", code, body)
	}
	if code, body := b.call("getUrl", nil); code != http.StatusOK || !strings.Contains(body, "second.html") {
		t.Errorf("B after A ended: %d %s", code, body)
	}
	if _, code, body := openRaw(t, s.url); code != http.StatusOK {
		t.Errorf("a new session once A's slot is free: %d %s", code, body)
	}
}

// hold keeps n calls in flight in the session (each a 30 s wait, sent again
// as soon as it ends) until the returned func hangs them up and waits for them
// to end.
func (s *rawSession) hold(n int) (hangUp func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				body := `{"jsonrpc":"2.0","id":"hold","method":"tools/call","params":{"name":"waitForTimeout","arguments":{"ms":30000}}}`
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Session-Id", s.id)
				req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
				if res, err := http.DefaultClient.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
			}
		})
	}
	return func() { cancel(); wg.Wait() }
}

// A client that sends too much, or too slowly, gets a clear error; another
// client is served meanwhile.
func TestHTTPHardening(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "hardening", "--http-max-body", "100000", "--http-read-timeout", "5s")
	other, code, body := openRaw(t, s.url)
	if code != http.StatusOK {
		t.Fatalf("initialize: %d %s", code, body)
	}

	// Too large, declared or chunked.
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", 200000) + `"}}`
	if code, body := other.post(big); code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "--http-max-body") {
		t.Errorf("200 kB body: %d %q", code, body)
	}
	req, _ := http.NewRequest(http.MethodPost, s.url, io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1 // chunked
	req.Header.Set("Content-Type", "application/json")
	if res, err := http.DefaultClient.Do(req); err == nil {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked 200 kB body: %d %q", res.StatusCode, b)
		}
	}

	// A body that never arrives, and a header that never ends: both cut off
	// after the read timeout, and the other client is served before that
	// (its browser is started first, so its call is quick).
	other.call("waitForTimeout", map[string]any{"ms": 1})
	u, _ := url.Parse(s.url)
	slowBody := dialRaw(t, u.Host, "POST /mcp HTTP/1.1\r\nHost: "+u.Host+"\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\":")
	slowHeader := dialRaw(t, u.Host, "POST /mcp HTTP/1.1\r\nHost: "+u.Host+"\r\nContent-Type: appl")
	if code, body := other.call("waitForTimeout", map[string]any{"ms": 1}); code != http.StatusOK || !strings.Contains(body, "waited") {
		t.Errorf("another client while two stall: %d %s", code, body)
	}
	if !stillOpen(slowBody) || !stillOpen(slowHeader) {
		t.Errorf("the stalled connections were cut off before another client was served")
	}
	if got := readAll(t, slowBody); !strings.Contains(got, "408") || !strings.Contains(got, "--http-read-timeout") {
		t.Errorf("slow body answered %q, want 408 naming --http-read-timeout", got)
	}
	readAll(t, slowHeader) // returns once the server closes it
}

// stillOpen reports whether the server has neither answered nor closed c.
func stillOpen(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(time.Millisecond))
	_, err := c.Read(make([]byte, 1))
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func dialRaw(t *testing.T, host, send string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if _, err := io.WriteString(c, send); err != nil {
		t.Fatal(err)
	}
	return c
}

// readAll reads until the server closes the connection (within the test bound).
func readAll(t *testing.T, c net.Conn) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(testbound.Bound()))
	b, err := io.ReadAll(bufio.NewReader(c))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Errorf("the server kept a stalled connection open for %s", testbound.Bound())
	}
	return string(b)
}
