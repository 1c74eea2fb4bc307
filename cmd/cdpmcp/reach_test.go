package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// --auto-connect finds a running Chromium by the DevToolsActivePort in its
// profile folder under the user's home (~/.config/chromium), drives its tabs
// and leaves it running; with no browser accepting connections it says what
// to turn on.
func TestAutoConnect(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	home := filepath.Join(tmp, "home")
	homeEnv := []string{"HOME=" + home, "XDG_CONFIG_HOME="}
	r := runCLIEnv(t, tmp, homeEnv, "call", "--auto-connect", "listPages")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "chrome://inspect/#remote-debugging") ||
		!strings.Contains(r.stdout+r.stderr, filepath.Join(home, ".config", "chromium")) {
		t.Errorf("--auto-connect with no browser: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	proc, err := browserproc.Launch(ctx, browserproc.Options{Headless: true, Disposable: true,
		UserDataDir: filepath.Join(home, ".config", "chromium")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proc.Close)
	r = runCLIEnv(t, tmp, homeEnv, "call", "--auto-connect", "navigate", `{"url":"`+site.URL("/second.html")+`"}`)
	if r.code != 0 || !strings.Contains(r.stdout, `"title":"Second page"`) {
		t.Errorf("--auto-connect navigate: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	select {
	case <-proc.Exited():
		t.Fatal("the browser --auto-connect found was closed")
	case <-time.After(200 * time.Millisecond):
	}
	r = runCLIEnv(t, tmp, homeEnv, "call", "--auto-connect", "listPages")
	if r.code != 0 || !strings.Contains(r.stdout, site.URL("/second.html")) {
		t.Errorf("--auto-connect listPages: the tab the last call left is not there: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if r := runCLIEnv(t, tmp, nil, "call", "--auto-connect", "--cdp-endpoint", "http://127.0.0.1:9", "listPages"); r.code == 0 || !strings.Contains(r.stderr, "give one of them") {
		t.Errorf("--auto-connect with --cdp-endpoint: exit %d, stderr %s", r.code, r.stderr)
	}
}

// A browser service's token (--cdp-header, or CDPMCP_CDP_HEADER) and a
// proxy's password never show in the logs (at debug level) or the --trace
// file, and both work.
func TestReachSecretsNeverLogged(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	pool, err := fixtures.StartPool("X-Api-Key", "svc-key-5f3a91", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	r := runCLIEnv(t, tmp, []string{"CDPMCP_CDP_HEADER=X-Api-Key: svc-key-5f3a91"}, "call", "--log-level", "debug",
		"--cdp-endpoint", pool.URL, "navigate", `{"url":"`+site.URL("/home.html")+`"}`)
	if r.code != 0 || !strings.Contains(r.stdout, `"title":"Fixtures home"`) || pool.Accepted() != 1 {
		t.Fatalf("through the browser service: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	checkNotShown(t, "svc-key-5f3a91", r.stdout+r.stderr, "")

	trace := filepath.Join(tmp, "trace.jsonl")
	s := startStdio(t, "reach", "--log-level", "debug", "--trace", trace, "--cdp-endpoint", pool.URL, "--cdp-header", "X-Api-Key: svc-key-5f3a91")
	ctx := testCtx(t, 2*time.Minute)
	if err := s.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/second.html")})
	_ = s.c.Close()
	checkNotShown(t, "svc-key-5f3a91", s.stderr.String(), trace)

	proxy, err := fixtures.StartAuthProxy("proxy-user", "proxy-pass-5678")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	trace = filepath.Join(tmp, "trace2.jsonl")
	s = startStdio(t, "reach", "--log-level", "debug", "--trace", trace,
		"--proxy-server", strings.Replace(proxy.URL, "http://", "http://proxy-user:proxy-pass-5678@", 1))
	if err := s.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	if text := mustCall(t, ctx, s.c, "navigate", map[string]any{"url": "http://proxied.test/page"}); !strings.Contains(text, `"title":"Through the proxy"`) {
		t.Errorf("through the proxy: %s", text)
	}
	_ = s.c.Close()
	checkNotShown(t, "proxy-pass-5678", s.stderr.String(), trace)
}

// checkNotShown fails when secret is in output or in the trace file (when
// named, which must have been written).
func checkNotShown(t *testing.T, secret, output, trace string) {
	t.Helper()
	texts := map[string]string{"the output": output}
	if trace != "" {
		b, err := os.ReadFile(trace)
		if err != nil || !strings.Contains(string(b), `"cdp":"send"`) {
			t.Fatalf("no trace written: %v", err)
		}
		texts["the trace"] = string(b)
	}
	for what, text := range texts {
		if strings.Contains(text, secret) {
			i := strings.Index(text, secret)
			t.Errorf("%s shows %s: …%s…", what, secret, text[max(0, i-200):min(len(text), i+60)])
		}
	}
}

// Flags of browsers from elsewhere that cannot go together, or cannot be
// read, stop the command with what to fix, without showing a secret.
func TestReachFlagErrors(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cdp-header", "Authorization: Bearer tok-secret-1"}, "--cdp-header goes with --cdp-endpoint"},
		{[]string{"--cdp-endpoint", "ws://127.0.0.1:9/x", "--cdp-header", "no-colon-here"}, "give NAME:VALUE"},
		{[]string{"--proxy-server", "http://u:hunter22@127.0.0.1:9", "--allowed-origins", "http://127.0.0.1:*"}, "cannot be used with --allowed-origins"},
		{[]string{"--proxy-server", "ftp://127.0.0.1:9"}, "the scheme must be http, https, socks4 or socks5"},
		{[]string{"--proxy-password", "hunter22"}, "go with --proxy-server"},
		{[]string{"--grant-permissions", "geolocation,teleport"}, `"teleport" is not a permission`},
		{[]string{"--grant-permissions", "local-network-access"}, "is not granted"},
		{[]string{"--init-script", filepath.Join(tmp, "missing.js")}, "--init-script"},
		{[]string{"--screenshot-scale", "retina"}, "give css or device"},
		{[]string{"--screenshot-max-width", "4"}, "16 or more"},
	} {
		r := runCLI(t, tmp, append(append([]string{"call"}, tc.args...), "listPages")...)
		out := r.stdout + r.stderr
		if r.code == 0 || !strings.Contains(out, tc.want) || strings.Contains(out, "hunter22") || strings.Contains(out, "tok-secret-1") {
			t.Errorf("%q: exit %d, output %s", tc.args, r.code, out)
		}
	}
	r := runCLI(t, tmp, "worker", "--jobs-db", "postgres://x@127.0.0.1:9/x", "--browser-pool", "wss://pool.example.com/", "listPages")
	if r.code == 0 || !strings.Contains(r.stderr, "--allow-remote-cdp") {
		t.Errorf("worker --browser-pool not on this machine: exit %d, %s", r.code, r.stderr)
	}
}
