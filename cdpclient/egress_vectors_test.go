package cdpclient

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/fixtures/watched"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// networkVector is one way a page can make the browser connect somewhere,
// run by fixtures/pages/attack/hostile.js.
type networkVector struct {
	name string
	// onClose vectors fire when the tab closes: the test closes it.
	onClose bool
	// click vectors need a user's click (popups): the test clicks #go.
	click bool
	// defaultContext vectors run in the browser's default context: Chromium
	// does not preconnect in the isolated (off-the-record) contexts.
	defaultContext bool
	// silent vectors reach nothing even without rules on this machine (no
	// QUIC, no DNS, features off in headless Chromium); the control run does
	// not expect them to, but the guarded run still requires zero.
	silent bool
}

var networkVectors = []networkVector{
	{name: "navigate"}, {name: "fetch"}, {name: "xhr"}, {name: "img"}, {name: "script"}, {name: "style"},
	{name: "font"}, {name: "cssimport"}, {name: "iframe"}, {name: "object"}, {name: "media"}, {name: "svgimage"},
	{name: "form"}, {name: "popup", click: true}, {name: "popupform", click: true}, {name: "redirect"}, {name: "refresh"},
	{name: "eventsource"}, {name: "websocket"}, {name: "websocketstream"}, {name: "webtransport"},
	{name: "webrtc"}, {name: "beacon"}, {name: "ping"}, {name: "download"}, {name: "worker"},
	{name: "workerimport"}, {name: "sharedworker"}, {name: "serviceworker"}, {name: "worklet"},
	{name: "dynamicimport"}, {name: "dataframe"}, {name: "srcdoc"}, {name: "speculationprefetch"},
	{name: "speculationprerender"}, {name: "prefetch"}, {name: "preload"}, {name: "modulepreload"},
	{name: "preconnect", defaultContext: true}, {name: "dnsprefetch", silent: true}, {name: "icon", silent: true},
	{name: "beaconclose", onClose: true}, {name: "keepaliveclose", onClose: true},
	{name: "fetchlater", onClose: true}, {name: "imgclose", onClose: true},
}

// With origin rules, a launched browser reaches no refused origin by any path a
// page has: every vector of the hostile page runs against its own watched
// server on 127.0.0.2, which counts TCP connections and UDP datagrams before
// reading a byte. The same vectors without rules do reach their servers, so
// the zeros are not vacuous.
//
// Not parallel: it opens ninety tabs, and timing-sensitive tests elsewhere
// should not run beside it.
func TestEgressHoldsEveryVector(t *testing.T) {
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	guarded, err := Connect(ctx, Options{Launch: LaunchOptions{Headless: true}, Origins: policy})
	if err != nil {
		t.Fatal(err)
	}
	defer guarded.Close()
	open, err := Connect(ctx, Options{Launch: LaunchOptions{Headless: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()

	results := runVectors(ctx, networkVectors, map[*Browser]bool{guarded: false, open: false})
	time.Sleep(500 * time.Millisecond) // stragglers: close beacons, prefetches

	var reached []string
	for _, r := range results {
		hits := r.srv.Hits()
		switch {
		case r.err != nil:
			t.Errorf("%s (guarded %v): %v", r.v.name, r.b == guarded, r.err)
		case r.b == guarded && hits != 0:
			t.Errorf("%s: the refused origin was reached %d times: %v", r.v.name, hits, r.srv.Log())
		case r.b == open && hits == 0 && !r.v.silent:
			t.Errorf("%s: without rules the vector reached nothing, so the guarded zero proves nothing", r.v.name)
		case r.b == open && hits > 0:
			reached = append(reached, r.v.name)
		}
		_ = r.srv.Close()
	}
	t.Logf("without rules, %d vectors reached the watched origin: %s", len(reached), strings.Join(reached, " "))
	if guarded.EgressRefused() == 0 {
		t.Error("the egress proxy refused nothing: the browser did not go through it")
	}
}

type vectorRun struct {
	v   networkVector
	b   *Browser
	def bool // run in the default context
	srv *watched.Server
	err error
}

// runVectors runs every vector in each browser, in fresh contexts, or in the
// default context where the map says so (and for vectors that need it), a few
// tabs at a time: two cores run the whole suite. Each vector has the test
// bound of its own (not ctx's, which the whole run would share: it takes
// minutes on a busy machine).
func runVectors(ctx context.Context, vectors []networkVector, browsers map[*Browser]bool) []*vectorRun {
	var (
		wg    sync.WaitGroup
		out   []*vectorRun
		slots = make(chan struct{}, 3) // more at once: page set-ups time out on a busy machine
	)
	for _, v := range vectors {
		for b, def := range browsers {
			r := &vectorRun{v: v, b: b, def: def || v.defaultContext}
			out = append(out, r)
			wg.Go(func() {
				slots <- struct{}{}
				defer func() { <-slots }()
				// Each vector has a bound of its own from when its turn
				// comes: ninety of them share two cores.
				vctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), testbound.Bound())
				defer cancel()
				runVector(vctx, r)
			})
		}
	}
	wg.Wait()
	return out
}

// runVector opens the hostile page with one vector in a fresh context of b,
// waits until the page has tried it, and closes the tab for on-close vectors.
func runVector(ctx context.Context, r *vectorRun) {
	b := r.b
	if r.srv, r.err = watched.Start(); r.err != nil {
		return
	}
	bc := b.Default()
	if !r.def {
		var err error
		if bc, err = b.NewContext(ctx); err != nil {
			r.err = err
			return
		}
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(10*time.Second))
			defer cancel()
			_ = bc.Close(cctx)
		}()
	}
	p, err := bc.NewPage(ctx)
	if err != nil {
		r.err = err
		return
	}
	if r.def {
		defer func() { _ = p.Close(context.Background()) }()
	}
	u := testSite.URL("/attack/hostile.html") + "?evil=" + url.QueryEscape(r.srv.Base) + "&v=" + r.v.name
	nctx, cancel := context.WithTimeout(ctx, testbound.Scale(10*time.Second))
	err = outcome(p.Navigate(nctx, u, WaitLoad))
	cancel()
	if err != nil {
		r.err = fmt.Errorf("open the hostile page: %w", err)
		return
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		s, err := evaluate(ctx, p, "document.getElementById('status')?.textContent ?? 'gone'")
		if err != nil || !strings.Contains(s, "running") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r.v.click {
		if err := outcome(p.Click(ctx, Target{Selector: "#go"}, ClickOptions{})); err != nil {
			r.err = err
			return
		}
	}
	time.Sleep(700 * time.Millisecond) // what the vector started: ICE gathering, prefetch, workers
	if r.v.onClose {
		if err := p.Close(ctx); err != nil {
			r.err = err
		}
		time.Sleep(300 * time.Millisecond)
	}
}
