package reader

import (
	"strings"

	"golang.org/x/net/html"
)

// The page's own region and its chrome, by the rules the page model reads a
// page by (cdpclient/js/reading.js): a nav, and a header or footer that is
// not inside an article, main or section, are the page's chrome; its main,
// or its one article, is its own region.

// chromeRoles are the landmark roles of a page's navigation, header and
// footer.
var chromeRoles = map[string]bool{"navigation": true, "banner": true, "contentinfo": true}

// dropChrome removes the page's navigation, header and footer from the tree.
func dropChrome(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && isChrome(c) {
			n.RemoveChild(c)
		} else {
			dropChrome(c)
		}
		c = next
	}
}

func isChrome(n *html.Node) bool {
	if chromeRoles[attr(n, "role")] || n.Data == "nav" {
		return true
	}
	if n.Data != "header" && n.Data != "footer" {
		return false
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && (p.Data == "article" || p.Data == "main" || p.Data == "section" ||
			attr(p, "role") == "main" || attr(p, "role") == "article") {
			return false // an article's own header or footer
		}
	}
	return true
}

// region is the page's own region under body: its main (an element or role
// "main") when that holds text, else its only article; nil when it has
// neither.
func region(body *html.Node) *html.Node {
	var mains, articles []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch {
			case c.Data == "main" || attr(c, "role") == "main":
				mains = append(mains, c)
			case c.Data == "article" || attr(c, "role") == "article":
				articles = append(articles, c)
			}
			walk(c)
		}
	}
	walk(body)
	for _, m := range mains {
		if strings.TrimSpace(innerText(m)) != "" {
			return m
		}
	}
	if len(articles) == 1 && strings.TrimSpace(innerText(articles[0])) != "" {
		return articles[0]
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.ToLower(strings.TrimSpace(a.Val))
		}
	}
	return ""
}
