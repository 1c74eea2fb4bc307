package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/mcp"
)

// A job store that is not one (damaged, or another program's file) is named
// with what to do: `cdpmcp jobs` exits non-zero; a server asked for the job
// tools does not start, saying so; one that was not asked for them finds it
// in its default data dir, and its job tools answer why while its other
// tools go on; nothing panics and the file is untouched.
func TestDamagedJobStore(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	data := filepath.Join(tmp, "cdpmcp") // the default data dir of a server with tmp
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(data, "jobs.db")
	junk := bytes.Repeat([]byte("this is not a job store\n"), 4096)
	if err := os.WriteFile(db, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	want := []string{db, "not a job store cdpmcp can read", "left untouched", "move it aside"}

	r := runCLI(t, t.TempDir(), "jobs", "--data-dir", data)
	for _, w := range want {
		if r.code == 0 || !strings.Contains(r.stderr, w) || strings.Contains(r.stderr, "panic") {
			t.Errorf("cdpmcp jobs on a damaged store: exit %d, stderr %q; want %q", r.code, r.stderr, w)
		}
	}

	r = runCLI(t, t.TempDir(), "serve", "--data-dir", data, "--caps", "jobs")
	for _, w := range append(want, "the job tools were asked for") {
		if r.code == 0 || !strings.Contains(r.stderr, w) || strings.Contains(r.stderr, "panic") {
			t.Errorf("serve --caps jobs on a damaged store: exit %d, stderr %q; want %q", r.code, r.stderr, w)
		}
	}

	s := startStdioIn(t, "damaged-store", tmp)
	ctx := testbound.Context(t)
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"browser.job.status", map[string]any{"correlationId": "x", "jobId": "job-x"}},
		{"browser.job.submit", map[string]any{"correlationId": "x", "url": site.URL("/home.html"), "task": map[string]any{"type": "navigate"}}},
	} {
		text, isErr := callTool(t, ctx, s.c, call.tool, call.args)
		for _, w := range want {
			if !isErr || !strings.Contains(text, w) {
				t.Errorf("%s on a damaged store: %q; want %q", call.tool, text, w)
			}
		}
	}
	if list, err := s.c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil || len(list.Tools) == 0 {
		t.Errorf("the server stopped serving: %v", err)
	}
	if got, err := os.ReadFile(db); err != nil || !bytes.Equal(got, junk) {
		t.Errorf("the damaged store was changed (%v)", err)
	}
	if strings.Contains(s.stderr.String(), "panic") {
		t.Errorf("a panic:\n%s", s.stderr.String())
	}
}
