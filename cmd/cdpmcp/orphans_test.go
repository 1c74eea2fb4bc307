package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// ownedBy lists the processes (pid and name) marked as started by the cdpmcp
// with the given pid: its browsers with all their helpers, and ffmpeg.
func ownedBy(pid int) []string {
	var out []string
	mark := []byte("CDPMCP_OWNER=" + strconv.Itoa(pid) + ".")
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !bytes.Contains(env, mark) {
			continue
		}
		st, _ := os.ReadFile(filepath.Join(d, "stat"))
		if i := bytes.LastIndexByte(st, ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
			continue // exited, waiting to be reaped
		}
		comm, _ := os.ReadFile(filepath.Join(d, "comm"))
		out = append(out, filepath.Base(d)+" "+strings.TrimSpace(string(comm)))
	}
	return out
}

// waitNoneOwnedBy waits (within the test bound) for every process of pid's
// to be gone.
func waitNoneOwnedBy(t *testing.T, pid int) {
	t.Helper()
	testbound.UntilNil(t, fmt.Sprintf("the processes of cdpmcp %d to end", pid), func() error {
		if left := ownedBy(pid); len(left) > 0 {
			return fmt.Errorf("still running: %v", left)
		}
		return nil
	})
}

// ownerToken is how a process marks its children as its own:
// "<pid>.<start time in clock ticks>".
func ownerToken(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return strconv.Itoa(pid) + "." + f[19]
}

// deadToken is the token of a process that has exited.
func deadToken(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("sleep", "0.2")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tok := ownerToken(t, cmd.Process.Pid)
	_ = cmd.Wait()
	return tok
}

// startMarked starts a long sleep marked as owned by token (if not empty), in
// a process group or a session of its own.
func startMarked(t *testing.T, token string, session bool) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	cmd.Env = os.Environ()
	if token != "" {
		cmd.Env = append(cmd.Env, "CDPMCP_OWNER="+token)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !session, Setsid: session}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

func running(cmd *exec.Cmd) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] != 'Z'
}

// The next start ends what a cdpmcp killed with -9 left running (a browser's
// process group, a helper in a session of its own) and removes the temporary
// profile it claimed; processes of a cdpmcp that still runs, processes nobody
// marked, and directories nobody claimed are left alone.
func TestNextStartEndsOrphans(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	dead, alive := deadToken(t), ownerToken(t, os.Getpid())
	group, session := startMarked(t, dead, false), startMarked(t, dead, true)
	others, unmarked := startMarked(t, alive, false), startMarked(t, "", false)
	profile := func(name, owner string) string {
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(dir, "Default"), 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(dir, ".cdpmcp-owner"), []byte(owner+" 0"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	abandoned, kept, unclaimed := profile("cdpmcp-profile-1", dead), profile("cdpmcp-profile-2", alive), profile("cdpmcp-profile-3", "")

	// Any cdpmcp that starts now ends them (in a parallel test run, another
	// test's server may be first); this one is started for that.
	runCLI(t, tmp, "call", "--browser-path", "/nope/chrome", "getUrl")
	testbound.Until(t, "the orphans to end", func() bool { return !running(group) && !running(session) })
	if !running(others) || !running(unmarked) {
		t.Errorf("processes that are not orphans were ended: a live cdpmcp's %v, unmarked %v", running(others), running(unmarked))
	}
	for dir, want := range map[string]bool{abandoned: false, kept: true, unclaimed: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", dir, err == nil, want)
		}
	}
}

// A server killed with -9 leaves nothing running: its browser and the
// browser's helpers exit when it dies, and what did not is ended by the
// next start, which also removes the dead server's temporary profile.
func TestKilledServerLeavesNothing(t *testing.T) {
	t.Parallel()
	s := startStdio(t, "kill9")
	ctx := testbound.Context(t)
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/home.html")})
	bp := findBrowser(t, s.marker)
	pid := s.cmd.Process.Pid
	if len(ownedBy(pid)) == 0 {
		t.Fatal("no process marked as the server's")
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitExit(pid, testbound.Bound())
	r := runCLI(t, s.tmp, "call", "--browser-path", "/nope/chrome", "getUrl") // the next start
	t.Logf("the next start:\n%s", r.stderr)
	waitNoneOwnedBy(t, pid)
	time.Sleep(time.Second) // nothing left to write it back
	if _, err := os.Stat(bp.UserDataDir); !os.IsNotExist(err) {
		t.Errorf("the dead server's profile %s is still there (%v)", bp.UserDataDir, err)
	}
}
