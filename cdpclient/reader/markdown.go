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
// addresses made absolute.
func markdown(n *html.Node, u *url.URL) (string, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(table.WithSkipEmptyRows(true)),
		strikethrough.NewStrikethroughPlugin(),
		imagesAsText{},
	))
	domain := ""
	if u != nil && u.Host != "" {
		domain = u.Scheme + "://" + u.Host
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
