package capture

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// A page printed to PDF: the file on disk, its size and its page count; an
// unknown paper format is the caller's mistake and writes nothing.
func TestPDF(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/parity/api.html")
	path := filepath.Join(t.TempDir(), "page.pdf")
	size, pages, err := PDF(ctx, p, path, PDFOptions{Format: "A4"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "%PDF") || len(b) != size || pages != 1 {
		t.Errorf("PDF: %d bytes, %d pages, file of %d bytes (%v)", size, pages, len(b), err)
	}
	other := filepath.Join(t.TempDir(), "other.pdf")
	var argErr *cdpclient.ArgError
	if _, _, err := PDF(ctx, p, other, PDFOptions{Format: "A5"}); !errors.As(err, &argErr) {
		t.Errorf("paper format A5: %v, want an argument error", err)
	}
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Errorf("a refused PDF left a file: %v", err)
	}
}
