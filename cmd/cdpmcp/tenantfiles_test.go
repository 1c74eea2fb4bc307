package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Over HTTP with named tokens a tenant's files are its own: alice's saved
// storage state (her sign-in) is in her folder; bob cannot load it, write
// over it, upload it or her downloads to a page, nor write a PDF there:
// each of her paths answers exactly as one of hers where there is no file,
// that it is not in his folder, and the hint names his folder. A name in his
// own folder with no file says so. Alice loads her own by its name.
func TestTenantFilesAreTheirOwn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	artifacts, downloads := filepath.Join(dir, "artifacts"), filepath.Join(dir, "downloads")
	const aliceTok, bobTok = "tok-alice-files-1", "tok-bob-files-2"
	s := startHTTP(t, "tenantfiles", "--auth-token", "alice="+aliceTok, "--auth-token", "bob="+bobTok,
		"--caps", "storage,files", "--artifacts-dir", artifacts, "--downloads-dir", downloads)
	ctx := testCtx(t, 2*time.Minute)
	alice := tokenClient(t, ctx, s.url, aliceTok)
	bob := tokenClient(t, ctx, s.url, bobTok)

	mustCall(t, ctx, alice, "navigate", map[string]any{"url": site.URL("/signin?user=alice")})
	if out := mustCall(t, ctx, alice, "storageState", map[string]any{"op": "save", "path": "mine.json"}); !strings.Contains(out, "saved 1 cookies") || !strings.Contains(out, "to mine.json") {
		t.Fatalf("alice's save: %s", out)
	}
	state := filepath.Join(artifacts, "tenants", "alice", "mine.json")
	before, err := os.ReadFile(state)
	if err != nil || !strings.Contains(string(before), "session") {
		t.Fatalf("alice's state is not in her folder: %v", err)
	}
	out := mustCall(t, ctx, alice, "navigate", map[string]any{"url": site.URL("/download?name=alice.csv&size=5")})
	download := ""
	if m := regexp.MustCompile(`"path":"([^"]+alice\.csv)"`).FindStringSubmatch(out); m != nil {
		download = m[1]
	}
	if _, err := os.Stat(download); err != nil || !strings.HasPrefix(download, downloads) {
		t.Fatalf("alice's download (%q) from %s: %v", download, out, err)
	}

	missing := filepath.Join(artifacts, "tenants", "alice", "none.json")
	bobs := filepath.Join(artifacts, "tenants", "bob")
	answer := func(c string, args map[string]any) string {
		text, isErr := callTool(t, ctx, bob, c, args)
		if !isErr {
			t.Errorf("bob's %s %v succeeded: %s", c, args, text)
		}
		return text
	}
	same := func(what, got, want, path, wantPath string) {
		t.Helper()
		if strings.ReplaceAll(got, path, "P") != strings.ReplaceAll(want, wantPath, "P") {
			t.Errorf("%s: another tenant's file answers unlike a missing one:\n%s\n%s", what, got, want)
		}
	}
	load := answer("storageState", map[string]any{"op": "load", "path": state})
	if !strings.Contains(load, "not in your folder") || !strings.Contains(load, "your folder on the server, "+bobs) {
		t.Errorf("bob's load of alice's state does not say it is not his, or where his files are: %s", load)
	}
	if got := answer("storageState", map[string]any{"op": "load", "path": "none.json"}); !strings.Contains(got, `"none.json": no such file in your folder`) || !strings.Contains(got, bobs) {
		t.Errorf("a name in bob's folder with no file: %s", got)
	}
	same("load", load, answer("storageState", map[string]any{"op": "load", "path": missing}), state, missing)
	same("load by name", answer("storageState", map[string]any{"op": "load", "path": "mine.json"}),
		answer("storageState", map[string]any{"op": "load", "path": "none.json"}), "mine.json", "none.json")
	same("save over", answer("storageState", map[string]any{"op": "save", "path": state}),
		answer("storageState", map[string]any{"op": "save", "path": filepath.Join(dir, "elsewhere.json")}), state, filepath.Join(dir, "elsewhere.json"))
	mustCall(t, ctx, bob, "navigate", map[string]any{"url": site.URL("/behave/upload.html")})
	for _, path := range []string{state, download} {
		same("upload", answer("uploadFile", map[string]any{"selector": "#file", "paths": []string{path}}),
			answer("uploadFile", map[string]any{"selector": "#file", "paths": []string{missing}}), path, missing)
	}
	same("pdf", answer("pdf", map[string]any{"path": filepath.Join(artifacts, "tenants", "alice", "x.pdf")}),
		answer("pdf", map[string]any{"path": filepath.Join(dir, "x.pdf")}), filepath.Join(artifacts, "tenants", "alice", "x.pdf"), filepath.Join(dir, "x.pdf"))
	if after, _ := os.ReadFile(state); string(after) != string(before) {
		t.Error("bob changed alice's storage state")
	}
	if _, err := os.Stat(filepath.Join(artifacts, "tenants", "alice", "x.pdf")); err == nil {
		t.Error("bob wrote a PDF into alice's folder")
	}

	// Bob's own files work; alice loads hers by name.
	if out := mustCall(t, ctx, bob, "storageState", map[string]any{"op": "save", "path": "bob.json"}); !strings.Contains(out, "to bob.json") {
		t.Errorf("bob's own save: %s", out)
	}
	if out := mustCall(t, ctx, alice, "storageState", map[string]any{"op": "load", "path": "mine.json"}); !strings.Contains(out, "loaded 1 cookies") {
		t.Errorf("alice's own load: %s", out)
	}
}
