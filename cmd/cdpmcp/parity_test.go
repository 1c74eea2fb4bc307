package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Sign in once: a server run saves the session's storage state; a second run
// started with --storage-state is signed in from its first page. Its flags
// come from a --config file; downloads land in --downloads-dir and stay.
func TestStorageStateAcrossServerRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state, downloads, cfg := filepath.Join(dir, "state.json"), filepath.Join(dir, "downloads"), filepath.Join(dir, "cdpmcp.json")
	if err := os.WriteFile(cfg, []byte(`{"caps": ["storage", "files"], "downloads-dir": "`+downloads+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}

	first := startStdio(t, "state1", "--config", cfg)
	ctx := testCtx(t, 60*time.Second)
	if _, err := initialize(ctx, first.c, ""); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, first.c, "navigate", map[string]any{"url": site.URL("/signin?user=carol")})
	mustCall(t, ctx, first.c, "webStorage", map[string]any{"op": "set", "key": "theme", "value": "light"})
	if out := mustCall(t, ctx, first.c, "storageState", map[string]any{"op": "save", "path": state}); !strings.Contains(out, "saved 1 cookies") {
		t.Fatalf("save: %s", out)
	}
	_ = first.c.Close()

	second := startStdio(t, "state2", "--config", cfg, "--storage-state", state)
	if _, err := initialize(ctx, second.c, ""); err != nil {
		t.Fatal(err)
	}
	if out := mustCall(t, ctx, second.c, "navigate", map[string]any{"url": site.URL("/account")}); !strings.Contains(out, `"title":"Account of carol"`) {
		t.Errorf("the second run is not signed in: %s", out)
	}
	if out := mustCall(t, ctx, second.c, "getContent", map[string]any{"selector": "#theme", "format": "text"}); out != "theme light" {
		t.Errorf("the second run's page read %q from localStorage", out)
	}
	out := mustCall(t, ctx, second.c, "navigate", map[string]any{"url": site.URL("/download?name=kept.csv&size=5")})
	if !strings.Contains(out, filepath.Join(downloads, "kept.csv")) {
		t.Errorf("download not in --downloads-dir: %s", out)
	}
	_ = second.c.Close()
	if b, err := os.ReadFile(filepath.Join(downloads, "kept.csv")); err != nil || string(b) != "id,na" {
		t.Errorf("the download did not stay after the server ended: %q %v", b, err)
	}
}

// --caps and --config: groups are offered when named, the command line wins
// over the file, and names that are no flag are refused.
func TestCapsAndConfigFlags(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	cfg := filepath.Join(tmp, "c.json")
	if err := os.WriteFile(cfg, []byte(`{"caps": "vision", "read-only": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	has := func(out, tool string) bool { return strings.Contains("\n"+out, "\n"+tool+" ") }
	r := runCLI(t, tmp, "tools")
	if r.code != 0 || has(r.stdout, "mouse") || has(r.stdout, "cdp") || !has(r.stdout, "drag") {
		t.Errorf("default tools (exit %d): %s", r.code, r.stdout)
	}
	if r = runCLI(t, tmp, "tools", "--config", cfg); !has(r.stdout, "mouse") || has(r.stdout, "cdp") {
		t.Errorf("tools with caps vision from the config file: %s %s", r.stdout, r.stderr)
	}
	if r = runCLI(t, tmp, "tools", "--config", cfg, "--caps", "devtools"); has(r.stdout, "mouse") || !has(r.stdout, "cdp") {
		t.Errorf("the command line's --caps did not win over the file: %s", r.stdout)
	}
	if r = runCLI(t, tmp, "tools", "--caps", "nope"); r.code == 0 || !strings.Contains(r.stderr, `unknown capability "nope"`) {
		t.Errorf("an unknown capability: exit %d %s", r.code, r.stderr)
	}
	if err := os.WriteFile(cfg, []byte(`{"headles": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if r = runCLI(t, tmp, "tools", "--config", cfg); r.code == 0 || !strings.Contains(r.stderr, `"headles" is not a flag`) {
		t.Errorf("a config file with a misspelt flag: exit %d %s", r.code, r.stderr)
	}
}
