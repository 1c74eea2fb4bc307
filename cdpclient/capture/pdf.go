package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"syscall"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// PDFOptions say how to print a page.
type PDFOptions struct {
	Landscape  bool
	Background bool   // print background graphics
	Format     string // Letter (default), A4, Legal
}

var paperSizes = map[string][2]float64{"": {8.5, 11}, "Letter": {8.5, 11}, "A4": {8.27, 11.69}, "Legal": {8.5, 14}}

// pdfPage counts pages in a PDF (a page object; not the /Pages tree).
var pdfPage = regexp.MustCompile(`/Type\s*/Page[^s]`)

// PDF prints the page with the print stylesheet and writes the PDF to path,
// returning its size in bytes and page count. The page sees it printed
// (beforeprint and afterprint run).
func PDF(ctx context.Context, p *cdpclient.Page, path string, opts PDFOptions) (int, int, error) {
	size, ok := paperSizes[opts.Format]
	if !ok {
		return 0, 0, cdpclient.ArgErrorf("use Letter, A4 or Legal", "paper format %q is not known", opts.Format)
	}
	var data []byte
	_, err := p.Door().Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		r, err := c.Page.PrintToPDF(ctx, page.NewPrintToPDFArgs().SetLandscape(opts.Landscape).
			SetPrintBackground(opts.Background).SetPaperWidth(size[0]).SetPaperHeight(size[1]))
		if err != nil {
			return fmt.Errorf("print to PDF: %w", err)
		}
		data = r.Data
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if !bytes.HasPrefix(data, []byte("%PDF")) {
		return 0, 0, fmt.Errorf("print to PDF: the browser gave no PDF")
	}
	if err := safefs.WriteUserFile(path, data, 0o644); err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			_ = os.Remove(path) // cut short: not a PDF to hand out
			return 0, 0, err    // INTERNAL: the disk is full
		}
		return 0, 0, cdpclient.ArgErrorf("give a path in a folder that exists and can be written", "cannot write %s: %v", path, err)
	}
	return len(data), len(pdfPage.FindAll(data, -1)), nil
}
