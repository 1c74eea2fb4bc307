package cdpclient

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
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
	// shellSilent vectors are silent in the headless shell, which has no
	// preconnect predictor.
	shellSilent bool
	// alone vectors take the page away (a navigation, a form, a download a
	// cross-origin link makes a navigation) or its requests (a service worker
	// claims the page and its workers): no other vector shares their page.
	alone bool
}

var networkVectors = []networkVector{
	{name: "navigate", alone: true}, {name: "fetch"}, {name: "xhr"}, {name: "img"}, {name: "script"}, {name: "style"},
	{name: "font"}, {name: "cssimport"}, {name: "iframe"}, {name: "object"}, {name: "media"}, {name: "svgimage"},
	{name: "form", alone: true}, {name: "popup", click: true}, {name: "popupform", click: true},
	{name: "redirect", alone: true}, {name: "refresh", alone: true},
	{name: "eventsource"}, {name: "websocket"}, {name: "websocketstream"}, {name: "webtransport"},
	{name: "webrtc"}, {name: "beacon"}, {name: "ping"}, {name: "download", alone: true}, {name: "worker"},
	{name: "workerimport"}, {name: "sharedworker"}, {name: "serviceworker", alone: true}, {name: "worklet"},
	{name: "dynamicimport"}, {name: "dataframe"}, {name: "srcdoc"}, {name: "speculationprefetch"},
	{name: "speculationprerender"}, {name: "prefetch"}, {name: "preload"}, {name: "modulepreload"},
	{name: "preconnect", defaultContext: true, shellSilent: true}, {name: "dnsprefetch", silent: true}, {name: "icon", silent: true},
	{name: "beaconclose", onClose: true}, {name: "keepaliveclose", onClose: true},
	{name: "fetchlater", onClose: true}, {name: "imgclose", onClose: true},
}

// The egress vectors, in a launched browser with and without origin rules
// (HoldsEveryVector) and in an attached one (Attached), side by side: most of
// their time is waiting, a guarded page's zeros held for the whole patience.
// Not beside the package's other tests: they open ninety tabs between them,
// and timing-sensitive tests elsewhere should not run beside them.
func TestEgress(t *testing.T) {
	t.Run("HoldsEveryVector", func(t *testing.T) {
		t.Parallel()
		egressHoldsEveryVector(t)
	})
	t.Run("Attached", func(t *testing.T) {
		t.Parallel()
		egressAttached(t)
	})
}

// With origin rules, a launched browser reaches no refused origin by any path a
// page has: every vector of the hostile page runs against its own watched
// server on 127.0.0.2, which counts TCP connections and UDP datagrams before
// reading a byte. The same vectors without rules do reach their servers, so
// the zeros are not vacuous. The browser is the one launched by default (the
// headless shell); egressAttached runs the vectors in a full Chromium.
func egressHoldsEveryVector(t *testing.T) {
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

	shell := browserproc.IsHeadlessShell(open.proc.Executable())
	var reached []string
	for _, r := range results {
		hits := r.srv.Hits()
		switch {
		case r.err != nil:
			t.Errorf("%s (guarded %v): %v", r.v.name, r.b == guarded, r.err)
		case r.b == guarded && hits != 0:
			t.Errorf("%s: the refused origin was reached %d times: %v", r.v.name, hits, r.srv.Log())
		case r.b == open && hits == 0 && !r.v.silent && !(shell && r.v.shellSilent):
			t.Errorf("%s: without rules the vector reached nothing, so the guarded zero proves nothing", r.v.name)
		case r.b == open && hits > 0:
			reached = append(reached, r.v.name)
		}
		r.close()
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

// close stops the run's watched server, if it started.
func (r *vectorRun) close() {
	if r.srv != nil {
		_ = r.srv.Close()
	}
}

// vectorsPerPage is how many vectors that leave the page alone share one: a
// tab and a context cost more than the vectors they carry.
const vectorsPerPage = 9

// vectorSetUps are the pages of the egress tests setting up at once (a
// context, a tab, the page loaded), across the tests: more at once time out on
// a busy machine. A page that has loaded waits for its vectors without a slot.
var vectorSetUps = make(chan struct{}, 3)

// openVectorPages is how many pages a runVectors has open at once, setting up
// or waiting: two cores run the whole suite.
const openVectorPages = 9

// runVectors runs every vector in each browser, in fresh contexts, or in the
// default context where the map says so (and for vectors that need it), a few
// tabs at a time (vectorSetUps, openVectorPages). Vectors share a page where
// they can (pageGroups), each against its own watched server, so a hit is
// still the vector's own. Each page has the test bound of its own (not ctx's,
// which the whole run would share: it takes minutes on a busy machine).
func runVectors(ctx context.Context, vectors []networkVector, browsers map[*Browser]bool) []*vectorRun {
	var (
		wg   sync.WaitGroup
		out  []*vectorRun
		open = make(chan struct{}, openVectorPages)
	)
	for b, def := range browsers {
		var runs []*vectorRun
		for _, v := range vectors {
			runs = append(runs, &vectorRun{v: v, b: b, def: def || v.defaultContext})
		}
		out = append(out, runs...)
		for _, page := range pageGroups(runs) {
			wg.Go(func() {
				open <- struct{}{}
				defer func() { <-open }()
				vectorSetUps <- struct{}{}
				setUp := sync.OnceFunc(func() { <-vectorSetUps })
				defer setUp()
				pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), testbound.Bound())
				defer cancel()
				if err := runPage(pctx, page, setUp); err != nil {
					for _, r := range page {
						r.err = err
					}
				}
			})
		}
	}
	wg.Wait()
	return out
}

// pageGroups puts the runs that can share a page together: those that take
// the page away, and those that wait for a click (a popup uses up the click's
// activation, so a second one is blocked), one to a page; those that fire on
// close and those of the default context each a page of their own kind; the
// rest vectorsPerPage to a page.
func pageGroups(runs []*vectorRun) [][]*vectorRun {
	var groups [][]*vectorRun
	kinds := map[string][]*vectorRun{}
	var order []string
	for _, r := range runs {
		if r.v.alone || r.v.click {
			groups = append(groups, []*vectorRun{r})
			continue
		}
		kind := fmt.Sprint(r.v.onClose, r.def)
		if len(kinds[kind]) == vectorsPerPage {
			groups = append(groups, kinds[kind])
			kinds[kind] = nil
		}
		if kinds[kind] == nil {
			order = append(order, kind)
		}
		kinds[kind] = append(kinds[kind], r)
	}
	for _, kind := range order {
		if len(kinds[kind]) > 0 {
			groups = append(groups, kinds[kind])
			kinds[kind] = nil
		}
	}
	return groups
}

// runPage opens the hostile page with a group's vectors in a fresh context of
// their browser (or its default context), each aimed at a watched server of
// its own, waits until the page has tried them, clicks #go for the vectors
// that wait for a click, and closes the tab for the on-close ones. It calls
// setUp once the page has loaded, before it waits for what the vectors do.
func runPage(ctx context.Context, page []*vectorRun, setUp func()) error {
	first := page[0]
	var names, evils []string
	for _, r := range page {
		var err error
		if r.srv, err = watched.Start(); err != nil {
			return err
		}
		names = append(names, r.v.name)
		evils = append(evils, r.srv.Base)
	}
	bc := first.b.Default()
	if !first.def {
		var err error
		if bc, err = first.b.NewContext(ctx); err != nil {
			return err
		}
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), testbound.Scale(10*time.Second))
			defer cancel()
			_ = bc.Close(cctx)
		}()
	}
	p, err := bc.NewPage(ctx)
	if err != nil {
		return err
	}
	if first.def {
		defer func() { _ = p.Close(context.Background()) }()
	}
	u := testSite.URL("/attack/hostile.html") + "?v=" + strings.Join(names, ",") + "&evil=" + url.QueryEscape(strings.Join(evils, ","))
	nctx, cancel := context.WithTimeout(ctx, testbound.Scale(10*time.Second))
	err = outcome(p.Navigate(nctx, u, WaitLoad))
	cancel()
	if err != nil {
		return fmt.Errorf("open the hostile page: %w", err)
	}
	setUp()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		s, err := evaluate(ctx, p, "document.getElementById('status')?.textContent ?? 'gone'")
		if strings.Contains(s, "unknown vector") {
			return fmt.Errorf("the hostile page says %s", s)
		}
		if err != nil || !strings.Contains(s, "running") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if first.v.click {
		if err := outcome(p.Click(ctx, Target{Selector: "#go"}, ClickOptions{})); err != nil {
			return err
		}
	}
	if !first.v.onClose {
		settle(page)
		return nil
	}
	time.Sleep(700 * time.Millisecond) // what the page set up to send on close
	if err := p.Close(ctx); err != nil {
		return err
	}
	settle(page)
	return nil
}

// settle waits for what a page's vectors started (ICE gathering, prefetches,
// workers): at least 700 ms, then until every vector that is not silent has
// reached its server (a run without rules) or the patience is spent (a run
// with rules, whose zeros then held for as long as the hits without rules
// could take to come).
func settle(page []*vectorRun) {
	start := time.Now()
	patience := testbound.Scale(3 * time.Second)
	for {
		time.Sleep(50 * time.Millisecond)
		waited := time.Since(start)
		if waited >= patience || waited >= 700*time.Millisecond && allReached(page) {
			return
		}
	}
}

func allReached(page []*vectorRun) bool {
	for _, r := range page {
		if !r.v.silent && r.srv.Hits() == 0 {
			return false
		}
	}
	return true
}
