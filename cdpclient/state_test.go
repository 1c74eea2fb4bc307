package cdpclient

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A session's sign-in (an HTTP-only cookie and localStorage) saved to a file
// and loaded into a fresh context: the site sees the same user, the page
// reads the same preferences before its scripts run.
func TestStorageStateRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/signin?user=ada"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.WebStorage(ctx, "local", "set", "theme", "dark"); err != nil {
		t.Fatal(err)
	}
	st, err := p.Context().StorageState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := WriteStorageState(path, st); err != nil {
		t.Fatal(err)
	}
	loaded, err := ReadStorageState(path)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := testBrowser.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
		defer cancel()
		_ = bc.Close(ctx)
	})
	if err := bc.LoadStorageState(ctx, loaded); err != nil {
		t.Fatal(err)
	}
	q, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := outcome(q.Navigate(ctx, testSite.URL("/account"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if got := pageText(t, ctx, q, "#who"); got != "signed in as ada" {
		t.Errorf("after loading the state the site says %q", got)
	}
	if got := pageText(t, ctx, q, "#theme"); got != "theme dark" {
		t.Errorf("the page read %q before its scripts ran", got)
	}
	// Seeded once: what the page then removes stays removed.
	if _, err := q.WebStorage(ctx, "local", "delete", "theme", ""); err != nil {
		t.Fatal(err)
	}
	// The seeding script goes once its origin is seeded (asynchronously).
	if err := poll(ctx, 10*time.Millisecond, func() (bool, error) {
		bc.seed.mu.Lock()
		defer bc.seed.mu.Unlock()
		return len(bc.seed.scripts) == 0, nil
	}); err != nil {
		t.Fatal("the seeding script stayed")
	}
	if err := outcome(q.Reload(ctx, false, WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if got := pageText(t, ctx, q, "#theme"); got != "theme none" {
		t.Errorf("a deleted item came back: %q", got)
	}
	// Cookies of the other context are its own.
	if _, err := p.Context().DeleteCookies(ctx, "session", ""); err != nil {
		t.Fatal(err)
	}
	if cs, _ := bc.Cookies(ctx); len(cs) != 1 || cs[0].Name != "session" || !cs[0].HTTPOnly {
		t.Errorf("the loaded context's cookies: %+v", cs)
	}
}
