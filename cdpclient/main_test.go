package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary; each test gets a fresh page
// in its own browser context so tests can run in parallel.
var (
	testBrowser *Browser
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
	// Pages from the corpus name hosts on the internet; fail them at once.
	noInternet := "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
	testBrowser, err = Connect(ctx, Options{Launch: LaunchOptions{Headless: true, Args: []string{noInternet}}})
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
func newTestPage(t testing.TB) *Page {
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

// outcome turns an action's feedback into the error a test checks: nil when the
// action happened, an *Error with the feedback's code otherwise.
func outcome(fb *feedback.Feedback, err error) error { return Outcome(fb, err) }

// pageText reads an element's text through the page (for checking page state).
func pageText(t *testing.T, ctx context.Context, p *Page, selector string) string {
	t.Helper()
	out, err := p.Evaluate(ctx, "document.querySelector("+jsString(selector)+").textContent", EvalOptions{})
	if err != nil {
		t.Fatalf("read %s: %v", selector, err)
	}
	var s string
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("read %s: %s is not a string", selector, out)
	}
	return s
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }
