package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mafredri/cdp/protocol/runtime"
)

// slowServer serves a page linking to /slow, whose answer never comes: the
// handler returns when the test ends (or the browser gives up), so that
// Close does not wait on it.
func slowServer(t *testing.T) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/slow" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		fmt.Fprint(w, `<!doctype html><title>Before</title><a href="/slow">slow</a>`)
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv
}

// A link to a server slow to answer: until it answers, Chromium lets no
// call reach the page the tab is leaving (it holds a tab's DevTools messages
// to its renderer from a navigation's start to its commit). The click
// happened and says what the tab waits for; the next calls say so too, not
// that a script keeps the page busy, and the page is not marked stuck;
// reload stops the wait and the tab stays where it was.
func TestSlowServerIsNoStuckScript(t *testing.T) {
	t.Parallel()
	srv := slowServer(t)
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, srv.URL+"/", WaitLoad)); err != nil {
		t.Fatal(err)
	}
	slow := srv.URL + "/slow"
	// The click's own deadline is short: its watchdog probes after 2 s, and
	// it then waits for the load until the deadline.
	cctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	fb, err := p.Click(cctx, Target{Selector: "a"}, ClickOptions{})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	wantFeedback(t, fb, CodeOK, "waiting for "+slow)
	if p.busy.Busy() {
		t.Error("the page is marked stuck in a script")
	}
	wantWaiting := func(what string, err error) {
		t.Helper()
		c := Classify(err)
		if err == nil || c.Code != CodeTimeout || !strings.Contains(c.Msg, "waiting for "+slow) || !strings.Contains(c.Hint, "reload") {
			t.Errorf("%s while the tab waits for the server: %v (hint %q), want TIMEOUT saying it waits for %s", what, err, c.Hint, slow)
		}
	}
	_, err = evaluate(ctx, p, "document.title")
	wantWaiting("evaluate", err)
	err = p.do(ctx, func(ctx context.Context) error {
		_, err := p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("1"))
		return err
	})
	wantWaiting("a read", err)
	if err := outcome(p.Reload(ctx, false, WaitLoad)); err != nil {
		t.Fatalf("reload: %v", err)
	}
	if got, err := evaluate(ctx, p, "document.title"); err != nil || got != `"Before"` || p.URL() != srv.URL+"/" {
		t.Errorf("after reload: title %s (%v) at %s, want \"Before\" at %s/", got, err, p.URL(), srv.URL)
	}
}

// A read that starts just after the page set off such a navigation gives the
// server the watchdog's patience, then says what the tab waits for.
func TestReadDuringSlowNavigation(t *testing.T) {
	t.Parallel()
	srv := slowServer(t)
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, srv.URL+"/", WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if _, err := evaluate(ctx, p, "location.href = '/slow'"); err != nil {
		t.Fatal(err)
	}
	testbound.UntilNil(t, "the request for /slow", func() error { // the browser starts it after the script
		for _, e := range p.logs.Network(0) {
			if e.URL == srv.URL+"/slow" {
				return nil
			}
		}
		return errors.New("not sent")
	})
	err := p.do(ctx, func(ctx context.Context) error {
		_, err := p.c.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("1"))
		return err
	})
	c := Classify(err)
	if err == nil || !strings.Contains(c.Msg, "waiting for "+srv.URL+"/slow") {
		t.Errorf("a read as the navigation starts: %v, want it to say the tab waits for %s/slow", err, srv.URL)
	}
	if p.busy.Busy() {
		t.Error("the page is marked stuck in a script")
	}
}
