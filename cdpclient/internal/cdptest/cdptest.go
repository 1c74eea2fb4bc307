// Package cdptest is what the tests of cdpclient's feature packages
// (cdpclient/audit, cdpclient/state) run on: one fixtures server and one
// headless browser per test binary (Main), a fresh page in its own browser
// context per test (NewPage), so tests run in parallel. Only tests import it;
// it imports cdpclient, fixtures and testbound.
package cdptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// The test binary's browser and fixtures server, set by Main.
var (
	Browser *cdpclient.Browser
	Site    *fixtures.Server
)

// Main starts the fixtures server and the browser, runs the tests and
// closes both; it returns the exit code: func TestMain(m *testing.M) {
// os.Exit(cdptest.Main(m)) }.
func Main(m *testing.M) int {
	var err error
	if Site, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "fixtures:", err)
		return 1
	}
	defer Site.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	// Pages name no host on the internet; should one, it fails at once.
	noInternet := "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
	Browser, err = cdpclient.Connect(ctx, cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{noInternet}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		return 1
	}
	code := m.Run()
	Browser.Close()
	return code
}

// NewContext returns a fresh browser context, closed when the test ends.
func NewContext(t testing.TB) *cdpclient.BrowserContext {
	t.Helper()
	bc, err := Browser.NewContext(testbound.Context(t))
	if err != nil {
		t.Fatalf("NewContext: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
		defer cancel()
		_ = bc.Close(ctx)
	})
	return bc
}

// NewPage returns a blank page in a fresh browser context, closed when the
// test ends.
func NewPage(t testing.TB) *cdpclient.Page {
	t.Helper()
	p, err := NewContext(t).NewPage(testbound.Context(t))
	if err != nil {
		t.Fatalf("NewPage: %v", err)
	}
	return p
}

// Open returns a page in a fresh browser context showing the fixture at path
// (loaded), and the test's context.
func Open(t testing.TB, path string) (*cdpclient.Page, context.Context) {
	t.Helper()
	p, ctx := NewPage(t), testbound.Context(t)
	if err := cdpclient.Outcome(p.Navigate(ctx, Site.URL(path), cdpclient.WaitLoad)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return p, ctx
}

// Text is the textContent of the page's first element matching selector.
func Text(t testing.TB, ctx context.Context, p *cdpclient.Page, selector string) string {
	t.Helper()
	sel, _ := json.Marshal(selector)
	out, err := eval.Evaluate(ctx, p, "document.querySelector("+string(sel)+").textContent", eval.Options{})
	if err != nil {
		t.Fatalf("read %s: %v", selector, err)
	}
	var s string
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("read %s: %s is not a string", selector, out)
	}
	return s
}

// Eval is the string an expression (awaited) gives, or its JSON when it is
// not a string.
func Eval(t testing.TB, ctx context.Context, p *cdpclient.Page, expr string) string {
	t.Helper()
	got, err := eval.Evaluate(ctx, p, expr, eval.Options{AwaitPromise: true})
	if err != nil {
		t.Fatalf("Evaluate(%q): %v", expr, err)
	}
	var s string
	if json.Unmarshal([]byte(got), &s) != nil {
		return got
	}
	return s
}

// WantCode fails the test unless err is a *cdpclient.Error with code want and
// a hint, and returns it.
func WantCode(t testing.TB, err error, want cdpclient.Code) *cdpclient.Error {
	t.Helper()
	var e *cdpclient.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *Error with code %v", err, err, want)
	}
	if e.Code != want {
		t.Fatalf("code = %v (%v), want %v", e.Code, err, want)
	}
	if e.Hint == "" {
		t.Errorf("error %q has no hint", err)
	}
	return e
}

// ElementLine matches an element line of a snapshot: its ref, tag,
// attributes and name.
var ElementLine = regexp.MustCompile(`(?m)^(\d+)\[:\]<([a-z]+)([^>]*)>(.*?)</[a-z]+>$`)

// RefOf finds the ref of the element line of snap whose name is name, and
// fails the test when there is none.
func RefOf(t testing.TB, snap, name string) string {
	t.Helper()
	for _, m := range ElementLine.FindAllStringSubmatch(snap, -1) {
		if m[4] == name {
			return m[1]
		}
	}
	t.Fatalf("no element %q in snapshot:\n%s", name, snap)
	return ""
}

// HeadingRef finds the ref on the heading line "N[:]## name" of snap, and
// fails the test when there is none.
func HeadingRef(t testing.TB, snap, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(\d+)\[:\]#+ ` + regexp.QuoteMeta(name) + `$`).FindStringSubmatch(snap)
	if m == nil {
		t.Fatalf("no heading %q in:\n%s", name, snap)
	}
	return m[1]
}
