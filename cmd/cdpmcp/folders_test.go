package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Another user of the machine creates the default artifacts folder
// ($TMPDIR/cdpmcp-artifacts) before cdpmcp does, open to everyone, and
// plants in it a recording folder whose network.har links to a file of the
// user's: record and the audits refuse the folder with the reason and what
// to do, nothing is written through the link; a server asked for the job
// tools on a data folder others can write in does not start, saying why.
// Once the folder is private, record works.
func TestPlantedArtifactsFolder(t *testing.T) {
	t.Parallel()
	open := filepath.Join(t.TempDir(), "open-data")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(open, 0o777)
	if r := runCLI(t, t.TempDir(), "serve", "--caps", "all", "--data-dir", open); r.code == 0 ||
		!strings.Contains(r.stderr, "the data folder (--data-dir) "+open) || !strings.Contains(r.stderr, "other users can write in it") {
		t.Errorf("a server with the job tools on a data folder others can write in: exit %d %q", r.code, r.stderr)
	}
	s := startStdio(t, "planted", "--caps", "all")
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(s.tmp, "cdpmcp-artifacts")
	if err := os.MkdirAll(filepath.Join(planted, "recording-planted"), 0o777); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(planted, 0o777)
	if err := os.Symlink(victim, filepath.Join(planted, "recording-planted", "network.har")); err != nil {
		t.Fatal(err)
	}
	why := "other users can write in it"
	if os.Geteuid() == 0 {
		if err := os.Chown(planted, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		why = "belongs to another user"
	}
	ctx := testbound.Context(t)
	if err := s.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/secret.html")})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"record", map[string]any{"op": "start"}}, {"auditAccessibility", nil}} {
		text, isErr := callTool(t, ctx, s.c, c.tool, c.args)
		if !isErr || !strings.Contains(text, "the artifacts folder "+planted) || !strings.Contains(text, why) || !strings.Contains(text, "--artifacts-dir") {
			t.Errorf("%s in a planted artifacts folder: %v %q", c.tool, isErr, text)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Errorf("the linked file became %q", b)
	}
	if entries, _ := os.ReadDir(planted); len(entries) != 1 {
		t.Errorf("cdpmcp wrote into the planted folder: %v", entries)
	}

	if err := os.RemoveAll(planted); err != nil {
		t.Fatal(err)
	}
	if text := mustCall(t, ctx, s.c, "record", map[string]any{"op": "start"}); !strings.Contains(text, planted) {
		t.Errorf("record in a folder of its own: %q", text)
	}
	mustCall(t, ctx, s.c, "record", map[string]any{"op": "stop"})
	if fi, err := os.Stat(planted); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the artifacts folder cdpmcp made: %v %v", fi.Mode(), err)
	}
}
