package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// tokenClient is an initialized HTTP client sending token.
func tokenClient(t *testing.T, ctx context.Context, url, token string) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	return c
}

// Over HTTP with named tokens, each token is a tenant: a second tenant that
// submits the same correlationId and arguments gets a job of its own, never
// the first one's result, live-view link or a way to cancel it; another
// tenant's job id is unknown to status, cancel and resume; a session answers
// only to the token that opened it. Tokens come from the flag and from a
// private tokens file, and never reach the log.
func TestJobsAcrossTenantsOverHTTP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "tokens")
	if err := os.WriteFile(file, []byte("# tenants\nbob tok-bob-2f9c1e\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, "tenants", "--data-dir", filepath.Join(dir, "data"), "--log-level", "debug",
		"--auth-token", "alice=tok-alice-8d1f3a", "--auth-tokens-file", file)
	ctx := testCtx(t, 90*time.Second)
	alice := tokenClient(t, ctx, s.url, "tok-alice-8d1f3a")
	bob := tokenClient(t, ctx, s.url, "tok-bob-2f9c1e")

	job := map[string]any{"correlationId": "same", "url": site.URL("/jobs/captcha.html"), "handoffAllowed": true,
		"task": map[string]any{"type": "login"}}
	aliceID := jobCall(t, ctx, alice, "browser.job.submit", job)["jobId"].(string)
	waiting := waitJob(t, ctx, alice, aliceID, "WAITING_FOR_HUMAN", "FAILED")
	link, _ := waiting["handoffUrl"].(string)
	if waiting["status"] != "WAITING_FOR_HUMAN" || link == "" {
		t.Fatalf("alice's job: %v", waiting)
	}

	sub := jobCall(t, ctx, bob, "browser.job.submit", job)
	bobID, _ := sub["jobId"].(string)
	if bobID == aliceID || sub["duplicate"] == true {
		t.Fatalf("bob's same submission answered alice's job: %v", sub)
	}
	if again := jobCall(t, ctx, alice, "browser.job.submit", job); again["jobId"] != aliceID || again["duplicate"] != true || again["currentStatus"] != "WAITING_FOR_HUMAN" {
		t.Errorf("alice's own retry: %v", again)
	}
	for _, tool := range []string{"browser.job.status", "browser.job.cancel", "browser.job.resume"} {
		text, isErr := callTool(t, ctx, bob, tool, map[string]any{"correlationId": "same", "jobId": aliceID})
		if !isErr || !strings.Contains(text, "no such job") || strings.Contains(text, link) {
			t.Errorf("bob's %s of alice's job: %v %q, want no such job", tool, isErr, text)
		}
	}
	bobState := waitJob(t, ctx, bob, bobID, "WAITING_FOR_HUMAN", "FAILED")
	if bobLink, _ := bobState["handoffUrl"].(string); bobLink == link {
		t.Errorf("bob's job has alice's live view link")
	}
	if st := jobState(t, ctx, alice, aliceID); st["status"] != "WAITING_FOR_HUMAN" || st["handoffUrl"] != link {
		t.Errorf("alice's job after bob's tries: %v", st)
	}

	// Alice's session id with bob's token is no session at all.
	raw := &rawSession{t: t, url: s.url, id: alice.GetSessionId()}
	code, _ := raw.postWith(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"browser.job.status","arguments":{"correlationId":"same","jobId":"`+aliceID+`"}}}`,
		"tok-bob-2f9c1e")
	if code != http.StatusNotFound {
		t.Errorf("alice's session with bob's token: %d, want 404", code)
	}
	for _, c := range []*client.Client{alice, bob} {
		req := mcp.CallToolRequest{}
		req.Params.Name = "browser.job.cancel"
		req.Params.Arguments = map[string]any{"correlationId": "same", "jobId": aliceID}
		if c == bob {
			req.Params.Arguments = map[string]any{"correlationId": "same", "jobId": bobID}
		}
		if _, err := c.CallTool(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	for _, tok := range []string{"tok-alice-8d1f3a", "tok-bob-2f9c1e"} {
		if strings.Contains(s.stderr.String(), tok) {
			t.Errorf("the log holds the token %s", tok)
		}
	}
}

// postWith posts body in the session with a bearer token and returns the
// status and body.
func (s *rawSession) postWith(body, token string) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", s.id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		s.t.Fatalf("POST: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// --auth-token values and the tokens file: names, unnamed tokens, base64
// padding, and the mistakes refused with a reason.
func TestParseAuthTokens(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good", "# comment\n\nalice tok-a\nbob=tok-b\n", 0o600)
	for _, c := range []struct {
		values []string
		file   string
		want   map[string]string // token → tenant; "" the local user
		short  []string          // tenants warned of: their token is short
		err    string
	}{
		{values: []string{"plain-token"}, want: map[string]string{"plain-token": ""}, short: []string{"local"}},
		{values: []string{"dave=0123456789abcdef", "erin=0123456789abcde"}, want: map[string]string{"0123456789abcdef": "dave", "0123456789abcde": "erin"}, short: []string{"erin"}},
		{values: []string{"YWJjZA=="}, want: map[string]string{"YWJjZA==": ""}},
		{values: []string{"carol=tok-c"}, file: good, want: map[string]string{"tok-c": "carol", "tok-a": "alice", "tok-b": "bob"}, short: []string{"carol", "alice", "bob"}},
		{values: []string{"owner-token", "carol=tok-c"}, want: map[string]string{"owner-token": "", "tok-c": "carol"}},
		{values: []string{"a", "b"}, err: "more than one token without a name"},
		{values: []string{"x=same", "y=same"}, err: "same token is given twice"},
		{values: []string{"x=t1", "x=t2"}, err: `"x" is given twice`},
		{values: []string{"Alice=t1", "alice=t2"}, err: `"alice" is given twice (names differing only in case`},
		{values: []string{"x="}, want: map[string]string{"x=": ""}},
		{values: []string{"x=has space"}, err: "cannot hold spaces"},
		{file: write("open", "alice tok-a\n", 0o644), err: "chmod 600"},
		{file: write("bad", "alice\n", 0o600), err: "give NAME TOKEN"},
		{file: write("badname", "../x tok\n", 0o600), err: "not a valid tenant name"},
		{file: filepath.Join(dir, "missing"), err: "no such file"},
	} {
		p, _, err := parseAuthTokens(c.values, c.file)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v %s: err %v, want %q", c.values, c.file, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v %s: %v", c.values, c.file, err)
			continue
		}
		for tok, want := range c.want {
			if got, ok := p.lookup(tok); !ok || got != want {
				t.Errorf("%v %s: token %s is tenant %q (%v), want %q", c.values, c.file, tok, got, ok, want)
			}
		}
		if c.short != nil && !slices.Equal(p.short, c.short) {
			t.Errorf("%v %s: short tokens of %v, want %v", c.values, c.file, p.short, c.short)
		}
		if _, ok := p.lookup("wrong"); ok {
			t.Errorf("%v: a wrong token was taken", c.values)
		}
	}
}
