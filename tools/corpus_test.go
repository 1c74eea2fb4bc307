package tools

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/tokens"
)

// The 40 saved real pages navigate ok (their own scripts throw and their
// subresources fail offline: the page still arrived), and the answer stays
// compact: at most 120 tokens median and 250 at most (estimated, which errs
// high).
func TestCorpusNavigateIsOKAndCompact(t *testing.T) {
	t.Parallel()
	noInternet := "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true,
		Args: []string{noInternet, fmt.Sprintf("--cdpmcp-test=corpus-%d", os.Getpid())}}})
	defer m.Close()
	s := New(Config{Timeout: callTimeout}, m)
	defer s.Close()
	c := newClient(t, s)
	var counts []int
	for _, name := range fixtures.CorpusPages() {
		r := callTool(t, c, "navigate", map[string]any{"url": site.URL("/corpus/" + name + ".html")})
		fb := feedbackOf(t, r)
		if r.isError || fb["ok"] != true {
			t.Errorf("%s: %s", name, r.text)
		}
		n := tokens.Count(r.text)
		counts = append(counts, n)
		if n > 250 {
			t.Errorf("%s: %d tokens: %s", name, n, r.text)
		}
	}
	slices.Sort(counts)
	med := counts[len(counts)/2]
	t.Logf("navigate feedback over %d pages: median %d, max %d tokens (o200k)", len(counts), med, counts[len(counts)-1])
	if med > 120 {
		t.Errorf("median %d tokens, want at most 120", med)
	}
}
