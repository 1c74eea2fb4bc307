package tools

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/audit"
)

// Through a real MCP client: a link given role=menu or role=button with no
// name is axe-core's link-name; a contrast of 2.848:1 reads 2.84 in the
// answer and in the JSON alike; a report of several pages' audits names each
// finding's page, one of a single page does not.
func TestAuditNamesAndReportPages(t *testing.T) {
	t.Parallel()
	c := newClient(t, auditServer(t, true, mgr, nil))
	links := site.URL("/audit/a11y-links.html")
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": links}))
	r := callTool(t, c, "auditAccessibility", nil)
	mustOK(t, r)
	wantIn(t, r, "3 findings (3 serious)", "link-name ref=", "#menu-link", "#button-link", "contrast 2.84:1, needs 4.5:1 (#7f9eaa on #ffffff")
	if strings.Contains(r.text, "aria-command-name") {
		t.Errorf("a link is reported as aria-command-name: %s", r.text)
	}
	var data struct{ Findings []audit.Finding }
	artifactOf(t, r, &data)
	for _, f := range data.Findings {
		if f.Rule == "color-contrast" && (f.Ratio != 2.84 || !strings.Contains(f.Msg, "2.84:1")) {
			t.Errorf("contrast in the JSON: ratio %v, message %q; want 2.84 in both", f.Ratio, f.Msg)
		}
	}

	single := callTool(t, c, "auditReport", nil)
	mustOK(t, single)
	if html := reportHTML(t, single); strings.Contains(html, `<th class="page">`) {
		t.Errorf("a report of one page has a page column")
	}

	bad := site.URL("/audit/a11y-bad.html")
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": bad}))
	mustOK(t, callTool(t, c, "auditAccessibility", nil))
	html := reportHTML(t, callTool(t, c, "auditReport", nil))
	if !strings.Contains(html, `<th class="page">`) {
		t.Fatalf("a report of two pages has no page column")
	}
	for _, page := range []string{links, bad} {
		if n := strings.Count(html, `<td class="page"><code>`+page+`</code></td>`); n == 0 {
			t.Errorf("no finding row names the page %s", page)
		}
	}
}

// reportHTML reads the report an auditReport answer names.
func reportHTML(t *testing.T, r result) string {
	t.Helper()
	m := regexp.MustCompile(`: (\S+\.html)\n`).FindStringSubmatch(r.text)
	if m == nil {
		t.Fatalf("no report path in %q", r.text)
	}
	b, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
