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
