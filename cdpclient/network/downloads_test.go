package network

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Each context saves its downloads in its own folder, which goes away with it:
// one session never sees, nor can hand a page, another's downloaded files.
func TestDownloadsPerContext(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	var dirs []string
	for _, name := range []string{"a.txt", "b.txt"} {
		p := cdptest.NewPage(t)
		dir := DownloadDir(p.Context())
		if dir == "" {
			t.Fatal("a context of a launched browser has no download folder")
		}
		dirs = append(dirs, dir)
		if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/home.html"), cdpclient.WaitLoad)); err != nil {
			t.Fatal(err)
		}
		script := `(() => { const a = document.createElement('a'); a.href = 'data:text/plain,` + name + `';
			a.download = '` + name + `'; document.body.appendChild(a); a.click(); return 1 })()`
		cdptest.Eval(t, ctx, p, script)
		testbound.UntilNil(t, name+" downloaded into "+dir, func() error {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && string(b) == name {
				return nil
			}
			entries, _ := os.ReadDir(dir)
			return fmt.Errorf("it holds %v", entries)
		})
	}
	if dirs[0] == dirs[1] {
		t.Fatalf("two contexts share the download folder %s", dirs[0])
	}
	for i, other := range []string{"b.txt", "a.txt"} {
		if _, err := os.Stat(filepath.Join(dirs[i], other)); err == nil {
			t.Errorf("%s holds the other context's %s", dirs[i], other)
		}
	}
	bc, err := cdptest.Browser.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := DownloadDir(bc)
	if err := bc.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) || !strings.Contains(dir, "cdpmcp-downloads") {
		t.Errorf("download folder %s after its context closed: %v", dir, err)
	}
}

// With a downloads folder (--downloads-dir), each new context saves into a
// subfolder of it, kept after the context closes; when the folder is no
// longer one, a new context fails with an error that names it, and no
// context is left behind.
func TestDownloadsDirSubfolders(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	root := filepath.Join(t.TempDir(), "downloads")
	b, err := cdpclient.Connect(ctx, cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true}, DownloadsDir: root})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := DownloadDir(b.Default()); got != root {
		t.Errorf("the default context saves into %q, want %q", got, root)
	}
	bc, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := DownloadDir(bc)
	if dir != filepath.Join(root, bc.ID()) {
		t.Errorf("a new context saves into %q, want a subfolder of %s", dir, root)
	}
	if err := bc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("the subfolder %s of --downloads-dir did not stay: %v", dir, err)
	}
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(root, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	if bc, err := b.NewContext(ctx); err == nil || !strings.Contains(err.Error(), "--downloads-dir") {
		t.Errorf("a new context with --downloads-dir a file: %v, want an error naming it", err)
		if bc != nil {
			_ = bc.Close(ctx)
		}
	}
	raw, err := b.Raw(ctx, "Target.getBrowserContexts", nil)
	if err != nil || strings.Contains(string(raw), `"browserContextIds":["`) {
		t.Errorf("contexts left in the browser: %s %v", raw, err)
	}
}
