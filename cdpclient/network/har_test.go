package network

import (
	"os"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context so tests can run in parallel.
// The feature is set up first, as cmd/cdpmcp does.
func TestMain(m *testing.M) { Register(); os.Exit(cdptest.Main(m)) }

// A sign-in (a redirect that sets an HTTP-only cookie) recorded as HAR: the
// redirect, then the account page with the cookie sent, its page and timings;
// the cookie is in neither direction's headers.
func TestRecordHARSignIn(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	p := cdptest.NewPage(t)
	var events int
	rec, err := RecordHAR(p, nil, func(cdpclient.Event) { events++ })
	if err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL("/signin?user=ada"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if got := cdptest.Text(t, ctx, p, "#who"); got != "signed in as ada" {
		t.Fatalf("the account page says %q", got)
	}
	testbound.Until(t, "the account page's document status", func() bool { return rec.DocumentStatus() == 200 })
	h := rec.Stop("cdpmcp", "test")
	if h.Log.Version != "1.2" || h.Log.Creator.Name != "cdpmcp" || len(h.Log.Pages) == 0 {
		t.Fatalf("HAR log header: %+v", h.Log)
	}
	if events == 0 {
		t.Error("onEvent saw no event")
	}
	var statuses []int
	for _, e := range h.Log.Entries {
		statuses = append(statuses, e.Response.Status)
		for _, hs := range [][]HARNVP{e.Request.Headers, e.Response.Headers} {
			for _, nv := range hs {
				if n := strings.ToLower(nv.Name); n == "cookie" || n == "set-cookie" {
					t.Errorf("%s carries a %s header", e.Request.URL, nv.Name)
				}
			}
		}
	}
	if len(statuses) < 2 || statuses[0] != 302 || statuses[1] != 200 {
		t.Fatalf("statuses %v, want 302 then 200", statuses)
	}
	if e := h.Log.Entries[0]; !strings.HasSuffix(e.Response.RedirectURL, "/account") || !strings.Contains(e.Request.URL, "/signin") {
		t.Errorf("first entry %s → %q is not the sign-in's redirect", e.Request.URL, e.Response.RedirectURL)
	}
	if e := h.Log.Entries[1]; e.PageRef != h.Log.Pages[0].ID || e.Time < 0 || e.Timings.Wait < 0 {
		t.Errorf("account entry: page %q (want %q), time %g, timings %+v", e.PageRef, h.Log.Pages[0].ID, e.Time, e.Timings)
	}
}
