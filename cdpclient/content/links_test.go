package content

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// markdownLink is a link as the Markdown writes it: [text](address), the
// address with no spaces (the converter escapes them and parentheses).
var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)`)

// mdLinks is each link of md as "text -> address", in order.
func mdLinks(md string) []string {
	var out []string
	for _, m := range markdownLink.FindAllStringSubmatch(md, -1) {
		out = append(out, m[1]+" -> "+m[2])
	}
	return out
}

// Every link in the Markdown goes where the browser sends it: relative,
// parent, rooted, fragment and query addresses resolved against the
// document's base URL, a <base> element's included, as a.href gives them,
// in each mode (the whole page, one element, the main content). A fragment
// of the page is written as the page's address and the fragment.
func TestMarkdownLinksGoWhereTheBrowserGoes(t *testing.T) {
	t.Parallel()
	u := cdptest.Site.URL
	for _, tt := range []struct {
		path string
		nav  string   // the page's nav link, read only with whole
		want []string // the article's links
	}{
		{"/reading/links/links.html", "Reading -> " + u("/reading/"), []string{
			"relative page -> " + u("/reading/links/other.html"),
			"parent page -> " + u("/reading/form.html"),
			"root page -> " + u("/top.html"),
			"fragment -> " + u("/reading/links/links.html#sec2"),
			"query -> " + u("/reading/links/links.html?q=1"),
			"mail address -> mailto:keeper@example.com",
		}},
		{"/reading/links/based.html", "Links -> " + u("/reading/links/"), []string{
			"relative page -> " + u("/reading/links/base/foo/bar/baz.html"),
			"parent page -> " + u("/reading/links/up.html"),
			"root page -> " + u("/top.html"),
			"fragment -> " + u("/reading/links/base/#sec2"),
			"query -> " + u("/reading/links/base/?q=1"),
		}},
	} {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			p, ctx := cdptest.Open(t, tt.path)
			whole := append([]string{tt.nav}, tt.want...)
			// The wanted addresses are the browser's own.
			var hrefs []string
			js := `JSON.stringify([...document.querySelectorAll('a[href]')].map(a => a.textContent.trim().split(/\s+/).join(' ') + ' -> ' + a.href))`
			if err := json.Unmarshal([]byte(cdptest.Eval(t, ctx, p, js)), &hrefs); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(whole, hrefs); diff != "" {
				t.Fatalf("the browser's a.href (-want +got):\n%s", diff)
			}
			for _, m := range []struct {
				name string
				o    Options
				want []string
			}{
				{"whole", Options{Format: "markdown", Whole: true}, whole},
				{"selector", Options{Format: "markdown", Selector: "main"}, tt.want},
				{"main content", Options{Format: "markdown"}, tt.want},
			} {
				md, err := Read(ctx, p, m.o)
				if err != nil {
					t.Fatalf("%s: %v", m.name, err)
				}
				if diff := cmp.Diff(m.want, mdLinks(md)); diff != "" {
					t.Errorf("%s: links (-want +got):\n%s\n%s", m.name, diff, md)
				}
			}
		})
	}
}

// On real pages every link of the main content to the page's own site goes
// where the browser sends it: each address is one of the page's a.href (as
// the converter writes it, its parentheses, brackets and spaces escaped).
// Wikipedia's citations (#cite_ref-27) are the page's address and the
// fragment; on a page with <base href="base/"> all eight go where a.href does.
func TestMarkdownLinksOnCorpusPages(t *testing.T) {
	t.Parallel()
	escape := strings.NewReplacer(" ", "%20", "[", "%5B", "]", "%5D", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E")
	for _, tt := range []struct{ name, want string }{
		{"wikipedia", "[**^**](" + cdptest.Site.URL("/corpus/wikipedia.html#cite_ref-27") + ")"},
		{"base-url-base-element-relative", "[link](" + cdptest.Site.URL("/corpus/base/baz.html#foo") + ")"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, ctx := cdptest.Open(t, "/corpus/"+tt.name+".html")
			var hrefs []string
			if err := json.Unmarshal([]byte(cdptest.Eval(t, ctx, p, `JSON.stringify([...document.querySelectorAll('a[href]')].map(a => a.href))`)), &hrefs); err != nil {
				t.Fatal(err)
			}
			browser := map[string]bool{}
			for _, h := range hrefs {
				browser[escape.Replace(h)] = true
			}
			md, err := Read(ctx, p, Options{Format: "markdown"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(md, tt.want) {
				t.Errorf("the Markdown lacks %s", tt.want)
			}
			// Only the site's own: the converter writes a query's "+" as
			// "%20" (converter/url.go), so an address from elsewhere with one
			// is not the browser's letter for letter.
			n := 0
			for _, m := range markdownLink.FindAllStringSubmatch(md, -1) {
				if addr := m[2]; strings.HasPrefix(addr, cdptest.Site.Base+"/") {
					n++
					if !browser[addr] {
						t.Errorf("[%s](%s): the page has no link the browser sends there", m[1], addr)
					}
				}
			}
			if n == 0 {
				t.Errorf("no links to the site in the Markdown:\n%s", md)
			}
		})
	}
}
