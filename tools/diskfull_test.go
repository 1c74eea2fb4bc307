package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// fullDisk mounts a small tmpfs, unmounted at cleanup, and fills it.
func fullDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(1<<20)+",mode=0700"); err != nil {
		if errors.Is(err, syscall.EPERM) {
			t.Skipf("mounting a tmpfs needs root (CAP_SYS_ADMIN): %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	return dir
}

// Files a tool writes to a full disk (an audit's data in the artifacts
// directory, a PDF) fail with INTERNAL saying the disk is full, and leave no
// half-written file; the session goes on.
func TestArtifactsOnAFullDisk(t *testing.T) {
	t.Parallel()
	disk := fullDisk(t)
	s := New(Config{IsolateSessions: true, Timeout: 2 * testbound.Bound(), Artifacts: disk}, mgr)
	defer s.Close()
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/actions.html")}))
	full := func(tool string, r result) {
		t.Helper()
		if !r.isError || !strings.Contains(r.text, "INTERNAL") || !strings.Contains(r.text, "no space left on device") || !strings.Contains(r.text, "free space") {
			t.Errorf("%s on a full disk: %s", tool, r.text)
		}
	}
	full("auditAccessibility", callTool(t, c, "auditAccessibility", nil))
	full("pdf", callTool(t, c, "pdf", map[string]any{"path": filepath.Join(disk, "page.pdf")}))
	entries, _ := os.ReadDir(disk)
	for _, e := range entries {
		if e.Name() != "filler" {
			t.Errorf("a file was left on the full disk: %s", e.Name())
		}
	}
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#inc"}))
}
