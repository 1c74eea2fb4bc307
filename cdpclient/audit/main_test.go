package audit

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary; each test gets a fresh page
// in its own browser context so tests can run in parallel.
var (
	testBrowser *cdpclient.Browser
	testSite    *fixtures.Server
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	var err error
	if testSite, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "fixtures:", err)
		return 1
	}
	defer testSite.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	// Pages name no host on the internet; should one, it fails at once.
	noInternet := "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
	testBrowser, err = cdpclient.Connect(ctx, cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{noInternet}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		return 1
	}
	code := m.Run()
	testBrowser.Close()
	return code
}

// newTestPage returns a blank page in a fresh browser context, closed when the
// test ends.
func newTestPage(t testing.TB) *cdpclient.Page {
	t.Helper()
	ctx := testContext(t)
	bc, err := testBrowser.NewContext(ctx)
	if err != nil {
		t.Fatalf("NewContext: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
		defer cancel()
		_ = bc.Close(ctx)
	})
	p, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatalf("NewPage: %v", err)
	}
	return p
}

// testContext is a context bounded by the test bound, cancelled when the test
// ends.
func testContext(t testing.TB) context.Context { return testbound.Context(t) }
