package actions

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient/capture"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
)

// Downloads lists the files the caller's pages downloaded.
var Downloads = define("downloads", "List the files this session's pages downloaded: name, size, type, page, saved path (actions also report their downloads).",
	ClassRead, Hints{ReadOnly: true, Idempotent: true},
	func(ctx context.Context, env *Env, _ noArgs) (*Result, error) {
		bc, err := env.Context(ctx)
		if err != nil {
			return nil, err
		}
		list := network.Downloads(bc)
		if len(list) == 0 {
			return &Result{Text: "no downloads"}, nil
		}
		var b strings.Builder
		for _, d := range list {
			fmt.Fprintf(&b, "%s %d B %s", d.Name, d.Size, d.MIME)
			if d.Page != "" {
				b.WriteString(" from " + d.Page)
			}
			switch d.State {
			case "completed":
				b.WriteString(" → " + d.Path)
			case "inProgress":
				fmt.Fprintf(&b, " (arriving: %d of %d B)", d.Size, d.Total)
			default:
				b.WriteString(" (" + d.State + ")")
			}
			b.WriteByte('\n')
		}
		return &Result{Text: strings.TrimSuffix(b.String(), "\n")}, nil
	}).inGroup("files")

type pdfArgs struct {
	Path       string `json:"path" required:"true" desc:"a .pdf file on the server's machine"`
	Landscape  bool   `json:"landscape"`
	Background bool   `json:"background" desc:"print background graphics"`
	Format     string `json:"format" enum:"Letter,A4,Legal" desc:"default Letter"`
	Page       string `json:"page"`
}

// PDF saves the page as a PDF file.
var PDF = define("pdf", "Save the page as a PDF file (print layout) and answer its path, size and pages.",
	ClassAct, Hints{Idempotent: true},
	func(ctx context.Context, env *Env, a pdfArgs) (*Result, error) {
		if err := require("path", a.Path, `{"path":"/tmp/page.pdf"}`); err != nil {
			return nil, err
		}
		if !strings.EqualFold(filepath.Ext(a.Path), ".pdf") {
			return nil, argErr("give a path ending in .pdf", "%q is not a .pdf file", a.Path)
		}
		path, ok := env.ownPath(a.Path)
		if !ok {
			return nil, notOwn("pdf", a.Path, env.homeHint("page.pdf", "the PDF is saved in"))
		}
		if err := env.homeReady(); err != nil {
			return nil, err
		}
		path, err := filepath.Abs(path)
		if err != nil {
			return nil, argErr("give an absolute path", "%v", err)
		}
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		size, pages, err := capture.PDF(ctx, p, path, capture.PDFOptions{Landscape: a.Landscape, Background: a.Background, Format: a.Format})
		if err != nil {
			return nil, err
		}
		return &Result{Text: fmt.Sprintf("saved %s (%d bytes, %d pages)", env.shownPath(path), size, pages), Files: []string{path}}, nil
	}).inGroup("files").describe("landscape", "wide pages")
