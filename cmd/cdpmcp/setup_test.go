package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Setup mistakes answer BROWSER_UNAVAILABLE with a hint naming the flag at
// fault, never a page's error or a hint to pass a flag that was passed.
func TestSetupMistakesNamed(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	port, err := fixtures.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	dead := fmt.Sprintf("http://127.0.0.1:%d", port)
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"call", "--cdp-endpoint", dead, "getTitle"},
			[]string{"BROWSER_UNAVAILABLE", fmt.Sprintf("nothing answers at 127.0.0.1:%d (--cdp-endpoint)", port), fmt.Sprintf("--remote-debugging-port=%d", port)}},
		{[]string{"call", "--browser-path", "/nope/chrome", "getTitle"},
			[]string{"BROWSER_UNAVAILABLE", "--browser-path /nope/chrome: no such file", "pass the path of a Chromium or Chrome executable"}},
		{[]string{"call", "--cdp-endpoint", "http://192.0.2.10:9222", "getUrl"},
			[]string{"BROWSER_UNAVAILABLE", "not on this machine", "--allow-remote-cdp"}},
		{[]string{"call", "--cdp-endpoint", "ftp://127.0.0.1:9222", "getUrl"},
			[]string{"BROWSER_UNAVAILABLE", "scheme", "--cdp-endpoint as http://127.0.0.1:PORT"}},
	}
	for _, tc := range cases {
		r := runCLI(t, tmp, tc.args...)
		out := r.stdout + r.stderr
		if r.code == 0 {
			t.Errorf("%v: exit 0", tc.args)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: lacks %q:\n%s", tc.args, w, out)
			}
		}
		if strings.Contains(out, "snapshot") || strings.Contains(out, "JS_ERROR") || strings.Contains(out, "or pass --browser-path") {
			t.Errorf("%v: a hint for another mistake:\n%s", tc.args, out)
		}
	}
	// serve refuses at once, in one line, an endpoint that can never work.
	start := time.Now()
	r := runCLI(t, tmp, "serve", "--cdp-endpoint", "http://192.0.2.10:9222")
	if r.code == 0 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "--allow-remote-cdp") {
		t.Errorf("serve with a remote endpoint: exit %d after %v, stderr %q; want one line naming --allow-remote-cdp", r.code, time.Since(start), r.stderr)
	}
}

// serve given an endpoint where nothing answers says so in one line at start,
// keeps serving, and connects once a browser answers there; when that browser
// dies, calls say so and the server connects to the next one, without a restart.
func TestServeAttachesWhenTheEndpointAnswers(t *testing.T) {
	t.Parallel()
	port, err := fixtures.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	endpoint := fmt.Sprintf("http://127.0.0.1:%d", port)
	s := startStdio(t, "late-endpoint", "--cdp-endpoint", endpoint)
	ctx := testbound.Context(t)
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "a warning at start about "+endpoint, func() bool {
		return strings.Contains(s.stderr.String(), fmt.Sprintf(`level=WARN msg="nothing answers at 127.0.0.1:%d (--cdp-endpoint)`, port))
	})
	text, isErr := callTool(t, ctx, s.c, "getUrl", nil)
	if !isErr || !strings.Contains(text, "BROWSER_UNAVAILABLE") || !strings.Contains(text, fmt.Sprintf("--remote-debugging-port=%d", port)) {
		t.Errorf("a call before the browser runs: %s", text)
	}
	browser, err := fixtures.StartChromium(port, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(browser.Kill)
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/home.html")})
	browser.Kill()
	var gone string
	testbound.Until(t, "a call to fail once the browser is killed", func() bool {
		text, isErr := callTool(t, ctx, s.c, "getUrl", nil)
		gone = text
		return isErr
	})
	if !strings.Contains(gone, "BROWSER_GONE") || !strings.Contains(gone, endpoint) || !strings.Contains(gone, "reconnects on the next call") {
		t.Errorf("a call after the attached browser died: %q", gone)
	}
	browser, err = fixtures.StartChromium(port, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(browser.Kill)
	text = mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/second.html")})
	if !strings.Contains(text, "connected to it again") {
		t.Errorf("the reconnection was not told: %s", text)
	}
}

// A browser that cannot start says why (its stderr's last lines); fixing it
// needs no restart: the next call starts it.
func TestBrowserThatCannotStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe := filepath.Join(dir, "browser")
	write := func(script string) {
		t.Helper()
		tmp := exe + ".new"
		if err := os.WriteFile(tmp, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, exe); err != nil {
			t.Fatal(err)
		}
	}
	write("#!/bin/sh\necho 'browser: error while loading shared libraries: libnss3.so: cannot open shared object file' >&2\nexit 127\n")
	s := startStdio(t, "cannot-start", "--browser-path", exe)
	ctx := testbound.Context(t)
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	text, isErr := callTool(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/home.html")})
	if !isErr || !strings.Contains(text, "BROWSER_UNAVAILABLE") || !strings.Contains(text, "exit status 127") ||
		!strings.Contains(text, "libnss3.so: cannot open shared object file") || !strings.Contains(text, "tries to start it on every call") {
		t.Errorf("a browser that exits at start: %s", text)
	}
	write("#!/bin/sh\nexec chromium \"$@\"\n")
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/home.html")})
	if title := mustCall(t, ctx, s.c, "getTitle", nil); title != "Fixtures home" {
		t.Errorf("title after the browser was fixed: %q", title)
	}
}

// Under a TMPDIR too long for the socket Chromium keeps there (107 bytes at
// most), the browser still starts: cdpmcp gives it a short one.
func TestLongTMPDIR(t *testing.T) {
	t.Parallel()
	long := filepath.Join(shortTemp(t), strings.Repeat("deep", 20))
	if err := os.MkdirAll(long, 0o700); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, long, "call", "--headless", "navigate", fmt.Sprintf(`{"url":%q}`, site.URL("/home.html")))
	if r.code != 0 || !strings.Contains(r.stdout, `"ok":true`) {
		t.Errorf("navigate under a TMPDIR of %d bytes: exit %d\n%s\n%s", len(long), r.code, r.stdout, r.stderr)
	}
	if entries, _ := os.ReadDir(long); len(entries) != 0 {
		t.Errorf("left in TMPDIR: %v", entries)
	}
}
