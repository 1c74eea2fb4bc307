package cdpclient

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

func TestResolveEndpointRefusesRemote(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	for _, ep := range []string{"http://192.0.2.1:9222", "ws://example.com:9222/devtools/browser/x", "http://[2001:db8::1]:9222"} {
		if _, err := resolveEndpoint(ctx, ep, false); !errors.Is(err, ErrRemoteEndpoint) {
			t.Errorf("resolveEndpoint(%q) = %v, want ErrRemoteEndpoint", ep, err)
		}
	}
	for _, ep := range []string{"", "9222", "ftp://127.0.0.1:9222"} {
		if _, err := resolveEndpoint(ctx, ep, false); err == nil {
			t.Errorf("resolveEndpoint(%q) accepted", ep)
		}
	}
	if got, err := resolveEndpoint(ctx, "ws://127.0.0.1:9/devtools/browser/abc/", false); err != nil || got != "ws://127.0.0.1:9/devtools/browser/abc" {
		t.Errorf("ws endpoint = %q, %v", got, err)
	}
}

// A browser started by someone else (here: by the test, with
// --remote-debugging-port) is attached to, its tabs are picked up, and it keeps
// running when we disconnect.
func TestAttachToRunningBrowser(t *testing.T) {
	t.Parallel()
	port, cmd := startDebuggableBrowser(t)
	ctx := testContext(t)
	b, err := Connect(ctx, Options{Endpoint: "http://127.0.0.1:" + port + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Launched() {
		t.Error("an attached browser counts as launched")
	}
	// Its existing tab is there, with the page it shows.
	var found *Page
	testbound.Until(t, "the browser's tab to be picked up", func() bool {
		for _, p := range b.Default().Pages() {
			if strings.HasSuffix(p.URL(), "/second.html") {
				found = p
			}
		}
		return found != nil
	})
	if err := outcome(found.WaitFor(ctx, WaitSpec{Text: "Second"})); err != nil {
		t.Fatalf("the user's tab cannot be read: %v", err)
	}
	if title := found.DocumentTitle(ctx); title != "Second page" {
		t.Errorf("title = %q", title)
	}
	if err := outcome(found.Navigate(ctx, testSite.URL("/home.html"), WaitLoad)); err != nil {
		t.Fatalf("navigate the user's tab: %v", err)
	}
	b.Close()
	// Disconnecting left the browser running.
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the attached browser was closed: %v", err)
	}
	b2, err := Connect(context.Background(), Options{Endpoint: "http://127.0.0.1:" + port})
	if err != nil {
		t.Fatalf("reattach: %v", err)
	}
	defer b2.Close()
	if n := len(b2.Default().Pages()); n < 1 {
		t.Errorf("after reattaching: %d pages", n)
	}
}

// startDebuggableBrowser starts Chromium the way a user would for attaching
// (--remote-debugging-port), showing /second.html, and returns its port.
func startDebuggableBrowser(t *testing.T) (string, *exec.Cmd) {
	t.Helper()
	exe, err := FindBrowser("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(exe, append([]string{"--remote-debugging-port=0", "--user-data-dir=" + dir, "--headless", "--no-sandbox"},
		append(requiredFlags, testSite.URL("/second.html"))...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		RemoveSingletonDir(dir) // a killed browser leaves it in TMPDIR
	})
	var port string
	testbound.Until(t, "the browser to start", func() bool {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			port, _, _ = strings.Cut(string(b), "\n")
		}
		return port != ""
	})
	return port, cmd
}

// When the attached browser goes away, calls say so clearly; it is not
// relaunched (it was never ours).
func TestAttachedBrowserLost(t *testing.T) {
	t.Parallel()
	port, cmd := startDebuggableBrowser(t)
	m := NewManager(Options{Endpoint: "http://127.0.0.1:" + port})
	defer m.Close()
	ctx := testContext(t)
	b, err := m.Browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-b.Done():
	case <-time.After(testbound.Bound()):
		t.Fatal("the connection did not notice the browser's death")
	}
	_, err = m.Browser(ctx)
	var ce *ConnectionError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "lost the connection to the browser at http://127.0.0.1:"+port) {
		t.Errorf("after the attached browser died: %v", err)
	}
}
