package pagemodel

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context so tests can run in parallel.
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

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

// evaluate runs expr in the page's main frame as the evaluate tool does and
// returns its value as JSON.
func evaluate(ctx context.Context, p *cdpclient.Page, expr string) (string, error) {
	return eval.Evaluate(ctx, p, expr, eval.Options{AwaitPromise: true})
}

// evaluateOn calls fn, a function of an element such as (el) => el.id, with
// the element ref names, as the evaluate tool does, and returns its value as
// JSON.
func evaluateOn(ctx context.Context, p *cdpclient.Page, ref, fn string) (string, error) {
	return eval.Evaluate(ctx, p, fn, eval.Options{Target: cdpclient.Target{Ref: ref}, AwaitPromise: true})
}

// wantCode fails the test unless err is a *cdpclient.Error with code want
// and a hint.
func wantCode(t *testing.T, err error, want cdpclient.Code) {
	t.Helper()
	cdptest.WantCode(t, err, want)
}

// setWalkLimit bounds the page model's walks on p below walkMax (0: no bound
// but walkMax), to stop a walk early.
func setWalkLimit(p *cdpclient.Page, d time.Duration) {
	st := stateOf(p)
	st.mu.Lock()
	st.walkLimit = d
	st.mu.Unlock()
}

// refOf finds the ref of the element line whose name is name.
func refOf(t *testing.T, snap, name string) string { t.Helper(); return cdptest.RefOf(t, snap, name) }
