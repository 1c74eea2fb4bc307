package reader

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadFragment(t *testing.T) {
	frag := `<h2>Prices</h2><p>See <a href="/shop">the shop</a> and <img alt="a cat" src="/c.png">.</p>
<ul><li>One</li><li>Two</li></ul>
<table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>$3</td></tr></table>`
	got, err := ReadFragment(frag, "https://example.com/page", Markdown)
	if err != nil {
		t.Fatal(err)
	}
	want := "## Prices\n\nSee [the shop](https://example.com/shop) and [image: a cat].\n\n- One\n- Two\n\n| Item | Price |\n|------|-------|\n| Tea  | $3    |\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
	text, err := ReadFragment(frag, "https://example.com/page", Text)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Prices", "See the shop and", "One", "Tea"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	if _, err := ReadFragment(frag, "https://example.com/page", "pdf"); err == nil {
		t.Error("format pdf accepted")
	}
}

// Relative link addresses are made absolute against the document's base URL,
// as a browser resolves them: the page's address (its folder, its query, the
// page itself for a fragment), or its <base> element's when it has one, in
// each mode; an element's HTML against the base URL it is given.
func TestLinksResolveAgainstTheBaseURL(t *testing.T) {
	const page = "https://example.com/t/sub/links.html"
	links := `<a href="other.html">relative</a> <a href="../form.html">parent</a> <a href="/top.html">root</a>
<a href="#sec2">fragment</a> <a href="?q=1">query</a> <a href="https://example.org/x">absolute</a>`
	doc := func(head string) string {
		return `<!doctype html><html><head><title>Links</title>` + head + `</head><body><main><article><h1>Links</h1>
<p>` + strings.Repeat("A paragraph long enough for the article to be taken as the main content. ", 4) + `</p>
<p>See the ` + links + `.</p><h2 id="sec2">Second</h2></article></main></body></html>`
	}
	atPage := []string{
		"relative -> https://example.com/t/sub/other.html",
		"parent -> https://example.com/t/form.html",
		"root -> https://example.com/top.html",
		"fragment -> https://example.com/t/sub/links.html#sec2",
		"query -> https://example.com/t/sub/links.html?q=1",
		"absolute -> https://example.org/x",
	}
	atBase := []string{
		"relative -> https://example.com/t/sub/base/other.html",
		"parent -> https://example.com/t/sub/form.html",
		"root -> https://example.com/top.html",
		"fragment -> https://example.com/t/sub/base/#sec2",
		"query -> https://example.com/t/sub/base/?q=1",
		"absolute -> https://example.org/x",
	}
	for _, tt := range []struct {
		name string
		read func() (string, error)
		want []string
	}{
		{"whole", func() (string, error) { return Read(doc(""), page, Markdown, true) }, atPage},
		{"main content", func() (string, error) { return Read(doc(""), page, Markdown, false) }, atPage},
		{"fragment", func() (string, error) { return ReadFragment("<p>"+links+"</p>", page, Markdown) }, atPage},
		{"whole, base", func() (string, error) { return Read(doc(`<base href="base/">`), page, Markdown, true) }, atBase},
		{"main content, base", func() (string, error) { return Read(doc(`<base href="base/">`), page, Markdown, false) }, atBase},
		{"fragment, base", func() (string, error) {
			return ReadFragment("<p>"+links+"</p>", "https://example.com/t/sub/base/", Markdown)
		}, atBase},
	} {
		md, err := tt.read()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, m := range regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)`).FindAllStringSubmatch(md, -1) {
			got = append(got, m[1]+" -> "+m[2])
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: links (-want +got):\n%s\n%s", tt.name, diff, md)
		}
	}
}
