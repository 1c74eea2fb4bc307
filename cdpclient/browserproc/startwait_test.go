package browserproc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// browserScript writes an executable shell script to stand in for the
// browser and returns its path.
func browserScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "browser")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A browser that runs but is slow to start (a loaded machine: here a
// wrapper that sleeps before it starts Chromium) is waited for, and its
// start succeeds.
func TestSlowBrowserStartIsWaitedFor(t *testing.T) {
	t.Parallel()
	shell, err := FindHeadless()
	if err != nil {
		t.Fatal(err)
	}
	slow := browserScript(t, fmt.Sprintf("sleep 2\nexec %s \"$@\"\n", shell))
	p, err := Launch(testbound.Context(t), Options{Path: slow, Headless: true}, nil)
	if err != nil {
		t.Fatalf("a browser slow to start: %v", err)
	}
	defer p.Close()
	if !strings.HasPrefix(p.Endpoint(), "ws://127.0.0.1:") {
		t.Errorf("endpoint %q", p.Endpoint())
	}
}

// A browser that runs and never reports its DevTools port fails once
// StartTimeout is up, saying so, and is ended; one that exits during its
// start fails at once (whatever the bound), with its last lines.
func TestBrowserStartThatNeverEnds(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	hung := browserScript(t, "echo $$ > "+pidFile+"\necho 'waiting for something that never comes' >&2\nexec sleep 600\n")
	_, err := Launch(testbound.Context(t), Options{Path: hung, Headless: true, StartTimeout: 1500 * time.Millisecond}, nil)
	var le *LaunchError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "without reporting its DevTools port") ||
		!strings.Contains(err.Error(), "waiting for something that never comes") || !strings.Contains(le.Hint, "call again") {
		t.Fatalf("a browser that never reports its port: %v", err)
	}
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid <= 0 {
		t.Fatalf("the script's pid %q", b)
	}
	testbound.Until(t, "the hung browser to be ended", func() bool { return syscall.Kill(pid, 0) != nil })

	dies := browserScript(t, "echo 'cannot open display' >&2\nexit 3\n")
	_, err = Launch(testbound.Context(t), Options{Path: dies, Headless: true, StartTimeout: time.Hour}, nil)
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "exited during start-up (exit status 3)") || !strings.Contains(err.Error(), "cannot open display") {
		t.Errorf("a browser that exits during its start: %v", err)
	}
}

// A launch error says whether trying again can help: not for a browser path
// with no file or a file that cannot be run; yes for a browser that exited
// during its start.
func TestLaunchErrorSaysWhetherToTryAgain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notRunnable := filepath.Join(dir, "chrome")
	if err := os.WriteFile(notRunnable, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path      string
		permanent bool
	}{
		{filepath.Join(dir, "nothing-here"), true},
		{notRunnable, true},
		{browserScript(t, "exit 1\n"), false},
	} {
		_, err := Launch(testbound.Context(t), Options{Path: tc.path, Headless: true}, nil)
		var le *LaunchError
		if !errors.As(err, &le) || le.Permanent != tc.permanent {
			t.Errorf("launch %s: %v (permanent %v), want a LaunchError with permanent %v", tc.path, err, le != nil && le.Permanent, tc.permanent)
		}
	}
}
