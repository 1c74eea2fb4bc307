// Package reader turns a page's HTML into what a person reads: its main content,
// found by go-readability (a Go port of Mozilla's Readability, the extractor
// behind Firefox's Reader View), as Markdown or plain text. It is pure: HTML in,
// text out, no browser.
package reader

import (
	"fmt"
	"net/url"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Format is what Read returns.
type Format string

// The formats Read knows.
const (
	// Markdown has the title as a heading, the byline, then the content with
	// headings, lists, tables and links as [text](url).
	Markdown Format = "markdown"
	// Text is the same content as plain text, one block per line.
	Text Format = "text"
)

// minArticle is the least text (in bytes) an extracted article must have to be
// taken for the page's main content; below it the whole page is read.
const minArticle = 200

// Read returns the main content of a document (its HTML, from pageURL) in
// format: the article Readability finds, else the page's own region (its
// main, or its one article), else the body; the page's navigation, and its
// header and footer (not an article's own), are left out. With whole it is
// all of the body, those included, with no extraction. Relative link
// addresses are made absolute against the document's base URL: its <base>
// element's, else pageURL.
func Read(doc, pageURL string, format Format, whole bool) (string, error) {
	u, err := url.Parse(pageURL)
	if err != nil {
		return "", fmt.Errorf("reader: page URL: %w", err)
	}
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return "", fmt.Errorf("reader: parse: %w", err)
	}
	u = documentBase(root, u)
	title := documentTitle(root)
	body := find(root, "body")
	if body == nil {
		body = root
	}
	if whole {
		return render(title, "", body, u, format)
	}
	dropChrome(root)
	// Readability changes the tree it reads; keep the original for the fallback.
	a, err := readability.FromDocument(clone(root), u)
	byline := ""
	if err == nil && a.Node != nil && len(strings.TrimSpace(innerText(a.Node))) >= minArticle {
		body, byline = a.Node, a.Byline()
		if t := strings.TrimSpace(a.Title()); t != "" {
			title = t
		}
	} else if r := region(body); r != nil {
		body = r
	}
	return render(title, byline, body, u, format)
}

// ReadFragment returns an element's HTML in format, all of it: no
// extraction. Relative link addresses are made absolute against baseURL, the
// base URL of the element's document (its <base> element's, else its URL).
func ReadFragment(fragment, baseURL string, format Format) (string, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return "", fmt.Errorf("reader: base URL: %w", err)
	}
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), ctx)
	if err != nil {
		return "", fmt.Errorf("reader: parse: %w", err)
	}
	for _, n := range nodes {
		ctx.AppendChild(n)
	}
	return render("", "", ctx, u, format)
}

func render(title, byline string, body *html.Node, u *url.URL, format Format) (string, error) {
	var sb strings.Builder
	switch format {
	case Markdown:
		if title != "" {
			sb.WriteString("# " + oneLine(title) + "\n\n")
		}
		if byline != "" {
			sb.WriteString(oneLine(byline) + "\n\n")
		}
		md, err := markdown(body, u)
		if err != nil {
			return "", err
		}
		sb.WriteString(md)
	case Text:
		if title != "" {
			sb.WriteString(oneLine(title) + "\n\n")
		}
		if byline != "" {
			sb.WriteString(oneLine(byline) + "\n\n")
		}
		sb.WriteString(innerText(body))
	default:
		return "", fmt.Errorf("reader: format %q is not markdown or text", format)
	}
	return strings.TrimSpace(sb.String()) + "\n", nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func documentTitle(root *html.Node) string {
	if t := find(root, "title"); t != nil && t.FirstChild != nil {
		return oneLine(t.FirstChild.Data)
	}
	return ""
}

// documentBase is the base URL of a document from pageURL: the address of
// its first <base> element with an href, made absolute against pageURL, as a
// browser takes it; else pageURL.
func documentBase(root *html.Node, pageURL *url.URL) *url.URL {
	base := dom.FindFirstNode(root, func(n *html.Node) bool {
		_, ok := dom.GetAttribute(n, "href")
		return n.Type == html.ElementNode && n.DataAtom == atom.Base && ok
	})
	if base == nil {
		return pageURL
	}
	href, _ := dom.GetAttribute(base, "href")
	ref, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return pageURL
	}
	return pageURL.ResolveReference(ref)
}

// find returns the first element named tag, depth first.
func find(n *html.Node, tag string) *html.Node {
	if n.Type == html.ElementNode && n.Data == tag {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, tag); f != nil {
			return f
		}
	}
	return nil
}

// clone copies a tree.
func clone(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace, Attr: append([]html.Attribute(nil), n.Attr...)}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.AppendChild(clone(k))
	}
	return c
}
