package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/runtime"
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

// openPage returns a new page (newTestPage) showing the test site's path,
// loaded, and the test's context.
func openPage(t testing.TB, path string) (*Page, context.Context) {
	t.Helper()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, testSite.URL(path), WaitLoad)); err != nil {
		t.Fatalf("Navigate %s: %v", path, err)
	}
	return p, ctx
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

// evaluate runs expr in the page's main frame as the evaluate tool runs a
// caller's expression (doScript: under the page's rules, with no busy
// watchdog, stopped with a *busy.ScriptTimeout when it runs out of time), awaits
// a promise, and returns the value as JSON ("undefined" for none). The
// evaluate tool is cdpclient/eval, which the core's own tests cannot import;
// they read and change their pages through this.
func evaluate(ctx context.Context, p *Page, expr string) (string, error) {
	var out string
	err := p.doScript(ctx, func(ctx context.Context) error {
		r, err := p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetObjectGroup(p.actLock.Group()).
			SetAwaitPromise(true).SetUserGesture(true).SetReplMode(true).SetReturnByValue(true))
		if err != nil {
			return fmt.Errorf("evaluate: %w", err)
		}
		out, err = jsonValue(&r.Result, r.ExceptionDetails)
		return err
	})
	return out, err
}

// waitTrue waits until expr, evaluated as evaluate does, is true: the
// core's tests wait for a page's state through it (the waitFor tool is
// cdpclient/wait, which they cannot import).
func waitTrue(t testing.TB, ctx context.Context, p *Page, expr string) {
	t.Helper()
	testbound.UntilNil(t, expr, func() error {
		got, err := evaluate(ctx, p, expr)
		if err == nil && got != "true" {
			err = fmt.Errorf("it is %s", got)
		}
		return err
	})
}

// jsonValue is a by-value result's JSON, or the exception it threw as a
// JS_ERROR.
func jsonValue(r *runtime.RemoteObject, exc *runtime.ExceptionDetails) (string, error) {
	if exc != nil {
		return "", &Error{Code: CodeJSError, Msg: ExceptionText(exc)}
	}
	if len(r.Value) == 0 {
		return "undefined", nil
	}
	return string(r.Value), nil
}

// modelLines runs the page model in the main frame, handing out refs as a
// snapshot does, and returns its lines (all of them, frames not walked into).
// The snapshot is cdpclient/pagemodel, which the core's own tests cannot
// import; they take the refs they act on from this.
func modelLines(t testing.TB, ctx context.Context, p *Page) string {
	t.Helper()
	var res struct {
		Lines []string `json:"lines"`
		Last  int      `json:"last"`
	}
	d := p.Door()
	_, err := d.Run(ctx, ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *World) error {
			return w.HandOutRefs(func(base int) (int, error) {
				r, err := w.Eval(ctx, fmt.Sprintf("__cdpmcp.snapshot({base: %d})", base), true)
				if err != nil {
					return 0, err
				}
				err = json.Unmarshal(r.Value, &res)
				return res.Last, err
			})
		})
	})
	if err != nil {
		t.Fatalf("page model: %v", err)
	}
	return strings.Join(res.Lines, "\n")
}

var lineRe = regexp.MustCompile(`(?m)^(\d+)\[:\]<([a-z]+)([^>]*)>(.*?)</[a-z]+>$`)

// refOf finds the ref of the element line whose name is name.
func refOf(t *testing.T, snap, name string) string {
	t.Helper()
	for _, m := range lineRe.FindAllStringSubmatch(snap, -1) {
		if m[4] == name {
			return m[1]
		}
	}
	t.Fatalf("no element %q in snapshot:\n%s", name, snap)
	return ""
}
