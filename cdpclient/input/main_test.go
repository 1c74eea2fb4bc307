package input

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context so tests can run in parallel.
func TestMain(m *testing.M) { Register(); os.Exit(cdptest.Main(m)) }

// newTestPage returns a blank page in a fresh browser context, closed when the
// test ends.
func newTestPage(t testing.TB) *cdpclient.Page { t.Helper(); return cdptest.NewPage(t) }

// testContext is a context bounded by the test bound, cancelled when the test
// ends.
func testContext(t testing.TB) context.Context { return testbound.Context(t) }

// outcome turns an action's feedback into the error a test checks: nil when the
// action happened, an *Error with the feedback's code otherwise.
func outcome(fb *feedback.Feedback, err error) error { return cdpclient.Outcome(fb, err) }

// open returns a new page showing the fixture at path.
func open(t *testing.T, path string) (*cdpclient.Page, context.Context) {
	t.Helper()
	return cdptest.Open(t, path)
}

// evalString evaluates expr and returns its value as a Go string.
func evalString(t *testing.T, ctx context.Context, p *cdpclient.Page, expr string) string {
	t.Helper()
	return cdptest.Eval(t, ctx, p, expr)
}

// pageText reads an element's text through the page (for checking page state).
func pageText(t *testing.T, ctx context.Context, p *cdpclient.Page, selector string) string {
	t.Helper()
	return cdptest.Text(t, ctx, p, selector)
}

// refOf finds the ref of the element line whose name is name.
func refOf(t *testing.T, snap, name string) string { t.Helper(); return cdptest.RefOf(t, snap, name) }

// snapshot is the page's snapshot now.
func snapshot(t *testing.T, ctx context.Context, p *cdpclient.Page, opts pagemodel.Options) string {
	t.Helper()
	s, err := pagemodel.Snapshot(ctx, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }
