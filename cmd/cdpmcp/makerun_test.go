package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// newcomer is a user without root, as the README's reader is: nobody when the
// tests run as root (a CI machine), else the user running them.
type newcomer struct {
	cred *syscall.Credential // nil: this process's user
	uid  int
}

func theNewcomer(t *testing.T) newcomer {
	t.Helper()
	if os.Geteuid() != 0 {
		return newcomer{uid: os.Geteuid()}
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("running as root, this test runs make as nobody: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return newcomer{cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, uid: uid}
}

// The README's From a checkout, as its reader does it, without root: in a
// copy of the checkout with a HOME of its own, `make run PORT=…` serves (the
// browser is there, so it installs nothing, and a binary built already needs
// no Go), answers an MCP call over HTTP as the README says, and Ctrl-C stops
// it and its browser. The click's answer is the README's example.
func TestReadmeMakeRunWithoutRoot(t *testing.T) {
	t.Parallel()
	who := theNewcomer(t)
	work := newcomerDir(t, who)
	checkout, home, tmp := filepath.Join(work, "cdpmcp"), filepath.Join(work, "home"), filepath.Join(work, "tmp")
	copyCheckout(t, "../..", checkout)
	// bin/cdpmcp, newer than every file it is built from: this test's build.
	if err := copyExecutable(binPath, filepath.Join(checkout, "bin", "cdpmcp")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{home, tmp} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if who.cred != nil {
		chownAll(t, work, int(who.cred.Uid), int(who.cred.Gid))
	}
	port, err := fixtures.FreePort()
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command("make", "run", "PORT="+strconv.Itoa(port))
	cmd.Dir = checkout
	// A login's environment: no Go caches or make state of this process's.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + tmp, "LANG=C.UTF-8",
		"GOPROXY=off", "GOTOOLCHAIN=local", "CDPMCP_TEST_RUN=" + os.Getenv("CDPMCP_TEST_RUN")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: who.cred, Pdeathsig: syscall.SIGKILL}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if bp, ok := fixtures.FindBrowser(tmp); ok {
			_ = syscall.Kill(-bp.PGID, syscall.SIGKILL)
		}
		if t.Failed() {
			t.Logf("make run printed:\n%s", out.String())
		}
	}()

	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	for deadline := time.Now().Add(testbound.Bound()); !strings.Contains(out.String(), `msg="serving MCP over streamable HTTP" url=`+url); {
		select {
		case err := <-exited:
			t.Fatalf("make run exited before serving: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("make run did not serve at %s within %s", url, testbound.Bound())
		}
	}
	if log := out.String(); strings.Contains(log, "apt-get") || strings.Contains(log, "go build") {
		t.Errorf("make run installed or built something, with the browser and bin/cdpmcp there:\n%s", log)
	}

	ctx := testCtx(t, 2*time.Minute)
	c := httpClient(t, ctx, url, "")
	if got := mustCall(t, ctx, c, "navigate", map[string]any{"url": site.URL("/home.html")}); !strings.Contains(got, `"ok":true`) || !strings.Contains(got, `"title":"Fixtures home"`) {
		t.Errorf("navigate through make run: %s", got)
	}
	snap := mustCall(t, ctx, c, "snapshot", nil)
	m := regexp.MustCompile(`(?m)^(\d+)\[:\]<a>Second page</a>$`).FindStringSubmatch(snap)
	if m == nil {
		t.Fatalf("the snapshot has no link to the second page:\n%s", snap)
	}
	assertReadmeFeedback(t, mustCall(t, ctx, c, "click", map[string]any{"ref": m[1]}))
	bp := findBrowser(t, tmp)

	// The jobs live in the newcomer's own state folder, private.
	state := filepath.Join(home, ".local", "state", "cdpmcp")
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o700 || fi.Sys().(*syscall.Stat_t).Uid != uint32(who.uid) {
		t.Errorf("the data dir %s: %v, %v; want this user's, mode 0700", state, fi, err)
	}

	// Ctrl-C: the terminal signals make and cdpmcp, its foreground group.
	_ = c.Close()
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(testbound.Bound()):
		t.Fatalf("make run still running %s after Ctrl-C", testbound.Bound())
	}
	testbound.Until(t, "the browser to end with make run", func() bool { _, ok := fixtures.FindBrowser(tmp); return !ok })
	assertNoLeak(t, bp, tmp)
}

// assertReadmeFeedback checks that the README's example answer is what a
// click on a link answers, its time aside.
func assertReadmeFeedback(t *testing.T, got string) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\{"act":"click"[^` + "`" + `]*\}`).Find(b)
	if m == nil {
		t.Fatal(`README.md shows no click's answer ({"act":"click",…})`)
	}
	var want, have map[string]any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(m), "\n", "")), &want); err != nil {
		t.Fatalf("README.md's example answer %s: %v", m, err)
	}
	if err := json.Unmarshal([]byte(got), &have); err != nil {
		t.Fatalf("the click's answer %q: %v", got, err)
	}
	delete(want, "timing")
	delete(have, "timing")
	if !reflect.DeepEqual(want, have) {
		t.Errorf("README.md's example answer is %s; a click on the link answers %s", m, got)
	}
}

// newcomerDir is a folder the newcomer can reach: under TMPDIR, unless the
// newcomer is another user and a folder on the way is closed to others
// (make test's TMPDIR is its own), then under /tmp.
func newcomerDir(t *testing.T, who newcomer) string {
	t.Helper()
	base := os.TempDir()
	if who.cred != nil {
		for d := base; d != filepath.Dir(d); d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&0o001 == 0 {
				base = "/tmp"
				break
			}
		}
	}
	dir, err := os.MkdirTemp(base, "cdpmcp-newcomer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// copyCheckout copies the project at src to dst as a clone has it: without
// .git and without what builds leave (bin, dist, results, node_modules).
// Files keep their times, so what make sees as newer stays so.
func copyCheckout(t *testing.T, src, dst string) {
	t.Helper()
	skip := map[string]bool{".git": true, "bin": true, "dist": true, "results": true}
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if e.IsDir() && (skip[rel] || e.Name() == "node_modules") {
			return filepath.SkipDir
		}
		to := filepath.Join(dst, rel)
		info, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case e.IsDir():
			return os.MkdirAll(to, 0o755)
		case e.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		case e.Type().IsRegular():
			if err := copyPlain(path, to, info.Mode().Perm()); err != nil {
				return err
			}
			return os.Chtimes(to, info.ModTime(), info.ModTime())
		}
		return nil
	})
	if err != nil {
		t.Fatalf("copying the checkout: %v", err)
	}
}

func copyPlain(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func copyExecutable(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return copyPlain(src, dst, 0o755)
}

// chownAll gives dir and everything in it to uid and gid.
func chownAll(t *testing.T, dir string, uid, gid int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}
