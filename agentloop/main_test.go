package agentloop

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
	"github.com/cdpmcp/cdpmcp/cdpclient/network"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/cdpclient/webmcp"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary; each test runs in its
// own browser context, so tests run in parallel.
var (
	site    *fixtures.Server
	browser *cdpclient.Browser
)

// childMain, when set and its process was started as a child (see
// killed_test.go), runs instead of the tests.
var childMain func() (int, bool)

// The features' listeners and hooks are set up first, as cmd/cdpmcp does.
func TestMain(m *testing.M) {
	network.Register()
	webmcp.Register()
	input.Register()
	if childMain != nil {
		if code, ok := childMain(); ok {
			os.Exit(code)
		}
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	var err error
	if site, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "fixtures:", err)
		return 1
	}
	defer site.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	noInternet := "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
	browser, err = cdpclient.Connect(ctx, cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{noInternet}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		return 1
	}
	code := m.Run()
	browser.Close()
	return code
}

// newEnv returns an action environment on a fresh browser context with one
// blank page, closed when the test ends.
func newEnv(t testing.TB) *actions.Env {
	t.Helper()
	ctx := testCtx(t)
	bc, err := browser.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
		defer cancel()
		_ = bc.Close(ctx)
	})
	if _, err := bc.NewPage(ctx); err != nil {
		t.Fatal(err)
	}
	policy, err := origins.NewList(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &actions.Env{Context: func(context.Context) (*cdpclient.BrowserContext, error) { return bc, nil }, Origins: policy}
}

func testCtx(t testing.TB) context.Context { return testbound.Context(t) }

// evalOn evaluates a JavaScript expression on the env's current page and
// returns its JSON value.
func evalOn(t *testing.T, env *actions.Env, expr string) string {
	t.Helper()
	p, err := env.Page(testCtx(t), "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := eval.Evaluate(testCtx(t), p, expr, eval.Options{AwaitPromise: true})
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return out
}
