package liveview_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	cdpeval "github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/liveview"
)

// Two browsers per test binary: tabs ("the job's") in one, and the person's
// browser that opens the live view in the other. One live view server.
var (
	site       *fixtures.Server
	jobs       *cdpclient.Manager
	person     *cdpclient.Manager
	lv         *liveview.Server
	jobsMarker = fmt.Sprintf("--cdpmcp-test=liveview-jobs-%d", os.Getpid())
	viewMarker = fmt.Sprintf("--cdpmcp-test=liveview-person-%d", os.Getpid())
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	var err error
	if site, err = fixtures.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer site.Close()
	var handler http.Handler
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	defer hs.Close()
	if lv, err = liveview.New(hs.URL); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer lv.Close()
	handler = lv.Handler()
	jobs = cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{jobsMarker}}})
	defer jobs.Close()
	person = cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true, Args: []string{viewMarker}}})
	defer person.Close()
	return m.Run()
}

func testCtx(t testing.TB) context.Context { return testbound.Context(t) }

// newTab opens url in a fresh context of browser mgr, closed when the test ends.
func newTab(t testing.TB, mgr *cdpclient.Manager, url string) *cdpclient.Page {
	t.Helper()
	ctx := testCtx(t)
	b, err := mgr.Browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
		defer cancel()
		_ = bc.Close(ctx)
	})
	p, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if url != "" {
		if err := cdpclient.Outcome(p.Navigate(ctx, url, cdpclient.WaitLoad)); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// eval evaluates expr on p and decodes its JSON value into out.
func eval(t testing.TB, p *cdpclient.Page, expr string, out any) {
	t.Helper()
	v, err := cdpeval.Evaluate(testCtx(t), p, expr, cdpeval.Options{AwaitPromise: true})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(v), out); err != nil {
		t.Fatalf("%s: %q: %v", expr, v, err)
	}
}

func evalString(t testing.TB, p *cdpclient.Page, expr string) string {
	t.Helper()
	var s string
	eval(t, p, expr, &s)
	return s
}

// waitFor waits until cond holds, failing the test after the test bound.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	testbound.Until(t, what, cond)
}

// viewerState is what the live view page tells about itself.
type viewerState struct {
	Frames       int     `json:"frames"`
	FirstFrameMs float64 `json:"firstFrameMs"`
	Ended        bool    `json:"ended"`
	Overlay      string  `json:"overlay"`
	// The picture: where it is drawn (CSS pixels of the viewer) and its size.
	Left, Top, Width, Height float64
}

func viewer(t testing.TB, p *cdpclient.Page) viewerState {
	t.Helper()
	var s viewerState
	eval(t, p, `(() => { const v = window.liveView || {}; const r = document.getElementById('screen')?.getBoundingClientRect() || {};
		return {frames: v.frames || 0, firstFrameMs: v.firstFrameMs || 0, ended: !!v.ended,
		overlay: document.getElementById('overlay')?.hidden === false ? document.getElementById('overlay-text').textContent : '',
		left: r.left, top: r.top, width: r.width, height: r.height}; })()`, &s)
	return s
}

// openView opens a live view URL in the person's browser and waits for its
// first frame.
func openView(t testing.TB, url string) (*cdpclient.Page, viewerState) {
	t.Helper()
	p := newTab(t, person, url)
	var s viewerState
	waitFor(t, "the first frame", func() bool { s = viewer(t, p); return s.Frames > 0 })
	return p, s
}

// tapAt clicks the viewer where the tab's point (x, y) is drawn. The tab's
// viewport has the viewer's size once the view has told the tab its size.
func clickTabPoint(t testing.TB, view, tab *cdpclient.Page, x, y float64) {
	t.Helper()
	var vp [2]float64
	eval(t, tab, `[innerWidth, innerHeight]`, &vp)
	s := viewer(t, view)
	vx, vy := s.Left+x*s.Width/vp[0], s.Top+y*s.Height/vp[1]
	ctx := testCtx(t)
	for _, ev := range []live.MouseEvent{{Type: "mouseMoved", X: vx, Y: vy},
		{Type: "mousePressed", X: vx, Y: vy, Button: "left", Buttons: 1, ClickCount: 1},
		{Type: "mouseReleased", X: vx, Y: vy, Button: "left", ClickCount: 1}} {
		if err := live.DispatchMouse(ctx, view, ev); err != nil {
			t.Fatal(err)
		}
	}
}

// rect is an element's box in a page's viewport.
func rect(t testing.TB, p *cdpclient.Page, selector string) live.Box {
	t.Helper()
	var r [4]float64
	sel, _ := json.Marshal(selector)
	eval(t, p, `(() => { const r = document.querySelector(`+string(sel)+`).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, &r)
	return live.Box{X: r[0], Y: r[1], W: r[2], H: r[3]}
}
