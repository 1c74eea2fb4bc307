package network

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/wait"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/google/go-cmp/cmp"
)

// A click or navigation that downloads answers with the file: name, size, MIME
// type and where it was saved, in the context's own folder; a link that
// downloads and then navigates reports both; a navigation to a file does not
// fetch it twice.
func TestDownloadsAreReported(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	p := cdptest.NewPage(t)
	dir := DownloadDir(p.Context())
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/downloads.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		click string
		want  feedback.Download
		body  string
	}{
		{"#csv", feedback.Download{Name: "report.csv", Size: 300, MIME: "text/csv"}, "id,name,total\n"},
		{"#redirected", feedback.Download{Name: "redirected.txt", Size: 20, MIME: "text/plain"}, "id,name,total\nid,na"},
		{"#attr", feedback.Download{Name: "hello.txt", Size: 11, MIME: "text/plain"}, "hello there"},
		{"#thenNav", feedback.Download{Name: "receipt.pdf", Size: 900, MIME: "application/pdf"}, "id,name"},
	}
	for _, tt := range tests {
		fb, err := p.Click(ctx, cdpclient.Target{Selector: tt.click}, cdpclient.ClickOptions{})
		if err := cdpclient.Outcome(fb, err); err != nil {
			t.Fatalf("%s: %v", tt.click, err)
		}
		tt.want.Path = filepath.Join(dir, tt.want.Name)
		if diff := cmp.Diff([]feedback.Download{tt.want}, fb.Downloads); diff != "" {
			t.Errorf("%s: downloads (-want +got):\n%s\n%s", tt.click, diff, fb.JSON())
		}
		if b, err := os.ReadFile(tt.want.Path); err != nil || !strings.HasPrefix(string(b), tt.body) {
			t.Errorf("%s: saved file %q: %v", tt.click, b, err)
		}
		for _, n := range fb.Net {
			if n.E == "net::ERR_ABORTED" {
				t.Errorf("%s: the request that became the download is reported failed: %s", tt.click, fb.JSON())
			}
		}
		if tt.click == "#thenNav" {
			// The page leaves a moment later (a timer): the answer does not
			// wait for that, and the page gets there.
			if err := cdpclient.Outcome(wait.For(ctx, p, wait.Spec{Text: "Thank you"})); err != nil {
				t.Errorf("download then navigate: %v (%s)", err, fb.JSON())
			}
			if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/downloads.html"), cdpclient.WaitLoad)); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := cdptest.Site.Hits("/download")
	fb, err := p.Navigate(ctx, cdptest.Site.URL("/download?name=direct.csv&size=10"), cdpclient.WaitLoad)
	if err := cdpclient.Outcome(fb, err); err != nil {
		t.Fatalf("navigate to a file: %v", err)
	}
	if len(fb.Downloads) != 1 || fb.Downloads[0].Name != "direct.csv" || cdptest.Site.Hits("/download")-before != 1 {
		t.Errorf("navigate to a file: %s (server hit %d times)", fb.JSON(), cdptest.Site.Hits("/download")-before)
	}
	var names []string
	for _, d := range Downloads(p.Context()) {
		names = append(names, d.Name+" "+d.State+" "+d.Page)
	}
	want := []string{"report.csv completed " + p.ID, "redirected.txt completed " + p.ID, "hello.txt completed " + p.ID,
		"receipt.pdf completed " + p.ID, "direct.csv completed " + p.ID}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("context downloads (-want +got):\n%s", diff)
	}
}
