package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// The end-to-end tests run the real binary, built once per test binary, against
// the fixtures server. Every server a test starts gets its own marker flag (to
// find its browser) and its own TMPDIR (to see what it leaves behind).
var (
	binPath string
	site    *fixtures.Server
	markers atomic.Int64
)

func TestMain(m *testing.M) { registerFeatures(); os.Exit(run(m)) }

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cdpmcp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binPath = filepath.Join(dir, "cdpmcp")
	build := exec.Command("go", "build", "-ldflags", "-s -w -X main.version=e2e-test", "-o", binPath, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		return 1
	}
	if site, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer site.Close()
	defer stopFleetDB()
	return m.Run()
}

// wantTools are the primitive tools every default catalogue offers.
var wantTools = []string{"navigate", "reload", "goBack", "goForward", "click", "type", "fill", "pressKey", "hover",
	"selectOption", "scroll", "uploadFile", "handleDialog", "waitFor", "waitForTimeout", "evaluate", "getTitle",
	"getUrl", "getContent", "screenshot", "console", "network", "newPage", "closePage", "listPages", "switchPage", "drag", "cdp"}

// newMarker returns a browser flag unique to this test process and call, for
// fixtures.FindBrowser.
func newMarker(name string) string {
	return fmt.Sprintf("--cdpmcp-test=e2e-%d-%s-%d", os.Getpid(), name, markers.Add(1))
}

// shortTemp is a temporary directory, removed when the test ends, with a
// short path, for a server process's TMPDIR: Chromium makes its singleton
// socket there, and a socket's path may not be longer than 107 bytes
// (t.TempDir's path holds the test's name).
func shortTemp(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "srv")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// procEnv is the environment of a server process whose temporary files go to tmp.
func procEnv(tmp string) []string {
	// XDG_STATE_HOME: a server never touches the user's own job data dir.
	return append(os.Environ(), "TMPDIR="+tmp, "XDG_STATE_HOME="+tmp)
}

// syncBuffer is a bytes.Buffer safe for a process to write while a test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testCtx is a context bounded by d scaled for the machine (testbound.Scale),
// and never by less than testbound.Bound (it ends only a test that would
// hang: a minute of a test's calls took more than a minute on two cores
// shared with the race lane's browsers), cancelled when the test ends.
func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), max(testbound.Scale(d), testbound.Bound()))
	t.Cleanup(cancel)
	return ctx
}

// initialize runs the MCP handshake; a non-empty version pins the protocol.
func initialize(ctx context.Context, c *client.Client, version string) (*mcp.InitializeResult, error) {
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "cdpmcp-e2e", Version: "1"}
	req.Params.ProtocolVersion = version
	return c.Initialize(ctx, req)
}

// callTool calls a tool and returns its text; a protocol error fails the test.
func callTool(t testing.TB, ctx context.Context, c *client.Client, name string, args map[string]any) (text string, isError bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, res.IsError
}

// mustCall is callTool for calls that must succeed.
func mustCall(t testing.TB, ctx context.Context, c *client.Client, name string, args map[string]any) string {
	t.Helper()
	text, isErr := callTool(t, ctx, c, name, args)
	if isErr {
		t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	return text
}

// findBrowser waits for the browser started with marker to show up.
func findBrowser(t testing.TB, marker string) fixtures.BrowserProc {
	t.Helper()
	var bp fixtures.BrowserProc
	testbound.Until(t, "a browser process with "+marker, func() (ok bool) { bp, ok = fixtures.FindBrowser(marker); return ok })
	return bp
}

// assertNoLeak checks, after the server exited, that its browser's process group
// is gone, its profile removed and its TMPDIR holds no cdpmcp profile.
func assertNoLeak(t testing.TB, bp fixtures.BrowserProc, tmp string) {
	t.Helper()
	if procgroup.Alive(bp.PGID) {
		t.Errorf("browser process group %d still running after the server exited; killing it", bp.PGID)
		_ = syscall.Kill(-bp.PGID, syscall.SIGKILL)
	}
	if _, err := os.Stat(bp.UserDataDir); !os.IsNotExist(err) {
		t.Errorf("profile %s still there after the server exited (stat: %v)", bp.UserDataDir, err)
	}
	if !strings.HasPrefix(bp.UserDataDir, tmp+string(os.PathSeparator)) {
		t.Errorf("profile %s is not under the server's TMPDIR %s", bp.UserDataDir, tmp)
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "cdpmcp-profile-") {
			t.Errorf("temporary profile %s left in TMPDIR", e.Name())
		}
	}
}

// waitExit waits until process pid has exited (it may stay a zombie until its
// parent reaps it) and reports whether it did within d.
func waitExit(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if i := bytes.LastIndexByte(b, ')'); i >= 0 {
			if f := strings.Fields(string(b[i+1:])); len(f) > 0 && f[0] == "Z" {
				return true
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
