package reader

import (
	"net/url"
	"strings"

	rdtext "codeberg.org/readeck/go-readability/v2/render"
	"github.com/JohannesKaufmann/dom"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
)

// markdown converts a tree to Markdown with html-to-markdown: CommonMark,
// tables as pipe tables, images as their alt text (their addresses cost many
// tokens and say little to a reader), links kept as [text](url) with the
// addresses made absolute against baseURL, the document's base URL.
func markdown(n *html.Node, baseURL *url.URL) (string, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(table.WithSkipEmptyRows(true)),
		strikethrough.NewStrikethroughPlugin(),
		imagesAsText{},
	))
	// The converter's "domain" is any absolute URL: it resolves each address
	// against it with url.ResolveReference (converter/url.go), so the whole
	// base URL, not its origin alone, puts "other.html", "../x", "#frag" and
	// "?q=1" where the browser does. One with no host (file:, about:) is not
	// taken, and the addresses stay as written.
	domain := ""
	if baseURL != nil && baseURL.Host != "" {
		domain = baseURL.String()
	}
	out, err := conv.ConvertNode(n, converter.WithDomain(domain))
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// imagesAsText renders <img> as its alt text in brackets, or nothing.
type imagesAsText struct{}

func (imagesAsText) Name() string { return "images-as-text" }

func (imagesAsText) Init(conv *converter.Converter) error {
	conv.Register.RendererFor("img", converter.TagTypeInline, func(_ converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
		if alt := oneLine(dom.GetAttributeOr(n, "alt", "")); alt != "" {
			w.WriteString("[image: " + strings.NewReplacer("[", "(", "]", ")").Replace(alt) + "]")
		}
		return converter.RenderSuccess
	}, converter.PriorityEarly)
	return nil
}

// innerText is the text of a tree as a browser's innerText would give it.
func innerText(n *html.Node) string { return rdtext.InnerText(n) }
