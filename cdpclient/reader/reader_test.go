package reader

import (
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
