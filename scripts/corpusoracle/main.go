// Command corpusoracle writes the reading oracle of the corpus pages: the text of
// Readability's extracted article (expected.html in the shared corpus), one block
// per line, gzipped to fixtures/corpus/<name>.expected.txt.gz. The page model's
// recall tests and the reading benchmark compare snapshots against it.
//
//	go run ./scripts/corpusoracle /work/shared/corpus/readability fixtures/corpus
package main

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: corpusoracle CORPUS_DIR OUT_DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "corpusoracle:", err)
		os.Exit(1)
	}
}

func run(corpus, out string) error {
	pages, err := filepath.Glob(filepath.Join(out, "*.html.gz"))
	if err != nil {
		return err
	}
	for _, p := range pages {
		name := strings.TrimSuffix(filepath.Base(p), ".html.gz")
		f, err := os.Open(filepath.Join(corpus, name, "expected.html"))
		if err != nil {
			return err
		}
		doc, err := html.Parse(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		var b strings.Builder
		text(&b, doc)
		if err := writeGzip(filepath.Join(out, name+".expected.txt.gz"), lines(b.String())); err != nil {
			return err
		}
	}
	return nil
}

// text appends n's text, a line break around every block and <br>.
func text(b *strings.Builder, n *html.Node) {
	switch n.Type {
	case html.TextNode:
		b.WriteString(n.Data)
		return
	case html.ElementNode:
		switch n.DataAtom {
		case atom.Script, atom.Style, atom.Noscript, atom.Template:
			return
		case atom.Br:
			b.WriteByte('\n')
			return
		}
	}
	block := n.Type == html.ElementNode && !inline[n.DataAtom]
	if block {
		b.WriteByte('\n')
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		text(b, c)
	}
	if block {
		b.WriteByte('\n')
	}
}

var inline = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true, atom.Cite: true, atom.Code: true,
	atom.Data: true, atom.Dfn: true, atom.Em: true, atom.I: true, atom.Kbd: true, atom.Mark: true, atom.Q: true,
	atom.S: true, atom.Samp: true, atom.Small: true, atom.Span: true, atom.Strong: true, atom.Sub: true,
	atom.Sup: true, atom.Time: true, atom.U: true, atom.Var: true, atom.Font: true, atom.Del: true, atom.Ins: true,
	atom.Img: true, atom.Label: true, atom.Tt: true, atom.Big: true, atom.Strike: true, atom.Wbr: true,
}

// lines folds whitespace inside each line and drops empty ones.
func lines(s string) string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

func writeGzip(path, s string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	if _, err := zw.Write([]byte(s)); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
