package audit

import (
	"fmt"
	"sort"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/google/go-cmp/cmp"
)

// The crawl finds the link site's broken links, its redirect chain and the
// page that throws; it never posts a form, opens no link twice (a.html is
// also where a redirect chain ends) and restores the current page.
func TestAuditLinksSite(t *testing.T) {
	t.Parallel()
	site, err := fixtures.Start() // its own server: hits are counted for this test alone
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	p := newTestPage(t)
	ctx := testContext(t)
	var progress []string
	rep, err := Links(ctx, p.Context(), LinksOptions{URL: site.URL("/audit/links/index.html"), SameOrigin: true, MaxPages: 20,
		Progress: func(done, total int, url string) { progress = append(progress, fmt.Sprint(done, "/", total)) }})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"broken-link " + site.AltURL("/status/404"),
		"broken-link " + site.URL("/audit/links/gone.html"),
		"broken-link " + site.URL("/audit/links/missing.html"),
		"broken-link " + site.URL("/status/500"),
		"console-errors " + site.URL("/audit/links/c.html"),
		"redirect-chain " + site.URL("/redirect?to=/redirect%3Fto%3D/audit/links/a.html"),
	}
	sort.Strings(want)
	if diff := cmp.Diff(want, rulesAt(rep.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if len(progress) != len(rep.Pages) || len(rep.Pages) != 9 || progress[0] != "1/20" {
		t.Errorf("%d pages, progress %v", len(rep.Pages), progress)
	}
	if n := site.Hits("/echo"); n != 0 {
		t.Errorf("the crawl sent %d form posts", n)
	}
	for _, path := range []string{"/audit/links/index.html", "/audit/links/b.html", "/audit/links/c.html"} {
		if n := site.Hits(path); n != 1 {
			t.Errorf("%s requested %d times, want once", path, n)
		}
	}
	if cur := p.Context().Current(); cur != p {
		t.Errorf("current page is %v after the crawl, want %s", cur, p.ID)
	}
	if pages := p.Context().Pages(); len(pages) != 1 {
		t.Errorf("the crawl's tab is still open: %d pages", len(pages))
	}
}

// The page limit is hard: a site of 100 pages crawled with maxPages 7 sees
// exactly 7 page requests; with maxPages 100 it sees all 100. (How long that
// takes is BenchmarkAuditLinks'.)
func TestAuditLinksLimit(t *testing.T) {
	t.Parallel()
	site, err := fixtures.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	p := newTestPage(t)
	ctx := testContext(t)
	rep, err := Links(ctx, p.Context(), LinksOptions{URL: site.URL("/audit/site/100/1.html"), SameOrigin: true, MaxPages: 7})
	if err != nil {
		t.Fatal(err)
	}
	total := int64(0)
	for i := 1; i <= 100; i++ {
		total += site.Hits(fmt.Sprintf("/audit/site/100/%d.html", i))
	}
	if total != 7 || len(rep.Pages) != 7 || rep.Stopped == "" || rep.Unvisited == 0 {
		t.Errorf("maxPages 7: %d requests, %d pages, stopped %q, %d unvisited", total, len(rep.Pages), rep.Stopped, rep.Unvisited)
	}
	rep, err = Links(ctx, p.Context(), LinksOptions{URL: site.URL("/audit/site/100/1.html"), SameOrigin: true, MaxPages: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pages) != 100 || len(rep.Findings) != 0 {
		t.Errorf("100-page crawl: %d pages, %d findings", len(rep.Pages), len(rep.Findings))
	}
}

// BenchmarkAuditLinks crawls the 100-page fixture site with auditLinks.
//
//	go test -run '^$' -bench AuditLinks -benchtime 3x ./cdpclient/audit
func BenchmarkAuditLinks(b *testing.B) {
	p := newTestPage(b)
	for b.Loop() {
		rep, err := Links(testContext(b), p.Context(), LinksOptions{URL: cdptest.Site.URL("/audit/site/100/1.html"), SameOrigin: true, MaxPages: 100})
		if err != nil || len(rep.Pages) != 100 {
			b.Fatalf("crawl: %v, %d pages", err, len(rep.Pages))
		}
	}
}
