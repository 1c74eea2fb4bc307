package state

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context so tests can run in parallel.
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// A session's sign-in (an HTTP-only cookie and localStorage) saved to a file
// and loaded into a fresh context: the site sees the same user, the page
// reads the same preferences before its scripts run.
func TestStorageStateRoundTrip(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/signin?user=ada")
	if _, err := WebStorage(ctx, p, "local", "set", "theme", "dark"); err != nil {
		t.Fatal(err)
	}
	st, err := Save(ctx, p.Context())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := WriteFile(path, st); err != nil {
		t.Fatal(err)
	}
	loaded, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bc := cdptest.NewContext(t)
	if err := Load(ctx, bc, loaded); err != nil {
		t.Fatal(err)
	}
	q, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(q.Navigate(ctx, cdptest.Site.URL("/account"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if got := cdptest.Text(t, ctx, q, "#who"); got != "signed in as ada" {
		t.Errorf("after loading the state the site says %q", got)
	}
	if got := cdptest.Text(t, ctx, q, "#theme"); got != "theme dark" {
		t.Errorf("the page read %q before its scripts ran", got)
	}
	// Seeded once: what the page then removes stays removed.
	if _, err := WebStorage(ctx, q, "local", "delete", "theme", ""); err != nil {
		t.Fatal(err)
	}
	// The seeding script goes once its origin is seeded (asynchronously).
	s := seedOf(bc)
	testbound.Until(t, "the seeding script goes", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.scripts) == 0
	})
	if err := cdpclient.Outcome(q.Reload(ctx, false, cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if got := cdptest.Text(t, ctx, q, "#theme"); got != "theme none" {
		t.Errorf("a deleted item came back: %q", got)
	}
	// Cookies of the other context are its own.
	if _, err := DeleteCookies(ctx, p.Context(), "session", ""); err != nil {
		t.Fatal(err)
	}
	if cs, _ := Cookies(ctx, bc); len(cs) != 1 || cs[0].Name != "session" || !cs[0].HTTPOnly {
		t.Errorf("the loaded context's cookies: %+v", cs)
	}
}
