package cdpclient

import (
	"encoding/json"
	"sync/atomic"
	"testing"
)

// A tool that asks for the current page while the context's only tab is still
// being set up (a launched browser's first tab on a loaded machine) gets that
// tab once it is ready; no second tab is opened. The set-up is held in the
// context's OnPage watcher, which runs as part of it.
func TestPageWaitsForATabBeingSetUp(t *testing.T) {
	ctx := testContext(t)
	bc, err := testBrowser.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bc.Close(testContext(t)) })
	held, release, second := make(chan *Page, 1), make(chan struct{}), make(chan *Page, 1)
	var seen atomic.Bool
	stop := bc.OnPage(func(p *Page) {
		if seen.CompareAndSwap(false, true) {
			held <- p
			<-release
			return
		}
		second <- p
	})
	defer stop()
	args, _ := json.Marshal(map[string]string{"url": "about:blank", "browserContextId": bc.ID()})
	if _, err := testBrowser.Raw(ctx, "Target.createTarget", args); err != nil {
		t.Fatal(err)
	}
	var tab *Page
	select {
	case tab = <-held:
	case <-ctx.Done():
		t.Fatal("the tab's set-up never reached its watcher")
	}
	bc.waitingForSetUp = func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}
	type got struct {
		p   *Page
		err error
	}
	done := make(chan got, 1)
	go func() {
		p, err := bc.Page(ctx, "")
		done <- got{p, err}
	}()
	select {
	case p := <-second:
		close(release)
		t.Fatalf("Page opened a second tab (%s) instead of waiting for the one being set up", p.ID)
	case g := <-done:
		if g.err != nil {
			t.Fatal(g.err)
		}
		if g.p != tab {
			t.Fatalf("Page returned %s, want the tab that was being set up (%s)", g.p.ID, tab.ID)
		}
	case <-ctx.Done():
		t.Fatal("Page did not return")
	}
	if n := len(bc.Pages()); n != 1 {
		t.Fatalf("the context has %d pages, want 1", n)
	}
}
