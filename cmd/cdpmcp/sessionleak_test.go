package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// footprint is what a server holds that sessions could leak: its browser's
// contexts and tabs, the processes of the browser's group, and the server's
// open files.
type footprint struct{ contexts, tabs, procs, fds int }

func (s *httpServer) footprint(t *testing.T, dt *devtools) footprint {
	t.Helper()
	var r struct {
		Infos []struct {
			Type string `json:"type"`
		} `json:"targetInfos"`
	}
	dt.call("Target.getTargets", map[string]any{}, &r)
	var f footprint
	for _, ti := range r.Infos {
		if ti.Type == "page" {
			f.tabs++
		}
	}
	f.contexts = dt.contexts()
	bp := findBrowser(t, s.marker)
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		var pid int
		if _, err := fmt.Sscan(filepath.Base(d), &pid); err != nil {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g == bp.PGID {
			f.procs++
		}
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", s.cmd.Process.Pid))
	f.fds = len(fds)
	return f
}

// Sessions opened and closed one after another leave nothing behind: each
// opens tabs and a context of its own, and once it ends the browser holds the
// contexts, tabs and processes it held before, and the server the same open
// files (a few more for connections still closing).
func TestHTTPSessionsLeaveNothing(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "session-leak", "--caps", "storage")
	ctx := testbound.Context(t)
	first := httpClient(t, ctx, s.url, "")
	mustCall(t, ctx, first, "navigate", map[string]any{"url": site.URL("/home.html")})
	dt := dialDevTools(t, s.marker)
	mustCall(t, ctx, first, "snapshot", nil)
	_ = first.Close()
	testbound.Until(t, "the first session's context to close", func() bool { return dt.contexts() == 0 })
	base := s.footprint(t, dt)
	const sessions = 6 // a leak of one file a session (six) shows beyond the slack of 4, of a process at once
	for i := range sessions {
		ctx := testbound.Context(t) // each session gets the whole bound: on a busy machine one takes seconds
		c := httpClient(t, ctx, s.url, "")
		mustCall(t, ctx, c, "navigate", map[string]any{"url": site.URL("/home.html")})
		mustCall(t, ctx, c, "newPage", map[string]any{"url": site.URL("/second.html")})
		mustCall(t, ctx, c, "snapshot", nil)
		if i%3 == 0 {
			mustCall(t, ctx, c, "contexts", map[string]any{"op": "new", "name": "extra"})
			mustCall(t, ctx, c, "navigate", map[string]any{"url": site.URL("/home.html")})
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	testbound.UntilNil(t, "the footprint to return to what it was before the sessions", func() error {
		f := s.footprint(t, dt)
		if f.contexts > base.contexts || f.tabs > base.tabs || f.procs > base.procs || f.fds > base.fds+4 {
			return fmt.Errorf("after %d sessions %+v, before %+v", sessions, f, base)
		}
		t.Logf("before %d sessions %+v, after %+v", sessions, base, f)
		return nil
	})
}
