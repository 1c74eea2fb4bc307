package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/cdpconn"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A browser started by someone else (here: by the test, with
// --remote-debugging-port) is attached to, its tabs are picked up, and it keeps
// running when we disconnect.
func TestAttachToRunningBrowser(t *testing.T) {
	t.Parallel()
	port, cmd := startDebuggableBrowser(t)
	ctx := testContext(t)
	// Its page has loaded before cdpmcp connects: its document is older
	// than cdpmcp's scripts for new documents.
	testbound.Until(t, "the browser's page to load", func() bool {
		res, err := http.Get("http://127.0.0.1:" + port + "/json/list")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return strings.Contains(string(body), `"title": "Second page"`)
	})
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
	waitTrue(t, ctx, found, `document.body.innerText.includes("Second")`)
	if title := found.DocumentTitle(ctx); title != "Second page" {
		t.Errorf("title = %q", title)
	}
	// The page model is installed in its older document on first use, and
	// finds its elements.
	if _, err := found.Resolve(ctx, Target{Selector: "body"}); err != nil {
		t.Errorf("an element of the page the browser showed before: %v", err)
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
	return startDebuggableBrowserOn(t, "0")
}

// startDebuggableBrowserOn is startDebuggableBrowser on a given port ("0":
// one the browser picks).
func startDebuggableBrowserOn(t *testing.T, port string) (string, *exec.Cmd) {
	t.Helper()
	exe, err := browserproc.FindBrowser("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(exe, append([]string{"--remote-debugging-port=" + port, "--user-data-dir=" + dir, "--headless", "--no-sandbox"},
		append(browserproc.RequiredFlags(), testSite.URL("/second.html"))...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		browserproc.RemoveSingletonDir(dir) // a killed browser leaves it in TMPDIR
	})
	// A browser given its port answers on it; one that chose writes it down.
	chosen := port
	testbound.Until(t, "the browser to start", func() bool {
		if port != "0" {
			res, err := http.Get("http://127.0.0.1:" + port + "/json/version")
			if err != nil {
				return false
			}
			res.Body.Close()
			return res.StatusCode == http.StatusOK
		}
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			chosen, _, _ = strings.Cut(string(b), "\n")
		}
		return chosen != "" && chosen != "0"
	})
	return chosen, cmd
}

// When the attached browser goes away, calls say so clearly (BROWSER_GONE,
// naming the endpoint, saying that cdpmcp reconnects); it is not relaunched
// (it was never ours). Once a browser answers on the endpoint again, the next
// call connects to it, with no restart of the manager.
func TestAttachedBrowserLost(t *testing.T) {
	t.Parallel()
	port, cmd := startDebuggableBrowser(t)
	endpoint := "http://127.0.0.1:" + port
	m := NewManager(Options{Endpoint: endpoint})
	defer m.Close()
	ctx := testContext(t)
	b, err := m.Browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Its tab (or, when the browser had not opened one yet, a new one); on a
	// loaded machine the tab may still be being set up.
	page, err := b.Default().Page(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-b.Done():
	case <-time.After(testbound.Bound()):
		t.Fatal("the connection did not notice the browser's death")
	}
	// A call on a tab of the dead browser, and the next call for a browser.
	_, err = page.Raw(ctx, "Runtime.evaluate", json.RawMessage(`{"expression":"1"}`))
	if c := Classify(err); c.Code != CodeBrowserGone || !strings.Contains(c.Msg, endpoint) || !strings.Contains(c.Hint, "reconnects") {
		t.Errorf("a call on the dead browser's tab: %v %q (hint %q)", c.Code, c.Msg, c.Hint)
	}
	_, err = m.Browser(ctx)
	var ce *cdpconn.ConnectionError
	if c := Classify(err); !errors.As(err, &ce) || c.Code != CodeBrowserGone || !strings.Contains(c.Msg, "lost the connection to the browser at "+endpoint) ||
		!strings.Contains(c.Hint, "--remote-debugging-port") {
		t.Errorf("after the attached browser died: %v %v (hint %q)", err, c.Code, c.Hint)
	}
	startDebuggableBrowserOn(t, port)
	b2, err := m.Browser(ctx)
	if err != nil {
		t.Fatalf("a browser answers on %s again, but: %v", endpoint, err)
	}
	if b2 == b || !b2.Alive() || !strings.Contains(m.LastLoss(), "connected to it again") {
		t.Errorf("not reconnected: alive %v, last loss %q", b2.Alive(), m.LastLoss())
	}
}
