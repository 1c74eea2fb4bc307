package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/liveview"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// newLiveView serves a live view on a loopback test server.
func newLiveView(t *testing.T) *liveview.Server {
	t.Helper()
	var h http.Handler
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	lv, err := liveview.New(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lv.Close)
	h = lv.Handler()
	return lv
}

// urlOpener is an MCP client's user: it is asked to open URLs (URL-mode
// elicitation) and says yes.
type urlOpener struct {
	mu   sync.Mutex
	asks []mcp.ElicitationParams
	got  chan string
}

func (o *urlOpener) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	o.mu.Lock()
	o.asks = append(o.asks, req.Params)
	o.mu.Unlock()
	o.got <- req.Params.URL
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept}}, nil
}

// urlClient connects an in-process client that declares URL elicitation.
func urlClient(t *testing.T, s *Server, o *urlOpener) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(s.MCP(), client.WithElicitationHandler(o))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "handoff-test", Version: "1"}
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{URL: &struct{}{}}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

// personTab opens url in a fresh context of the test's browser, which is
// not the jobs' browser: the person's own.
func personTab(t *testing.T, url string) *cdpclient.Page {
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
	if err := cdpclient.Outcome(p.Navigate(ctx, url, cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	return p
}

func evalJSON(t *testing.T, p *cdpclient.Page, expr string, out any) {
	t.Helper()
	v, err := eval.Evaluate(testCtx(t), p, expr, eval.Options{AwaitPromise: true})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(v), out); err != nil {
		t.Fatalf("%s: %q", expr, v)
	}
}

// waitUntil waits until cond holds, failing the test after the test bound.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testbound.Until(t, what, cond)
}

// viewFrames is how many frames the person's view has drawn.
func viewFrames(t *testing.T, view *cdpclient.Page) int {
	var n int
	evalJSON(t, view, `(window.liveView && window.liveView.frames) || 0`, &n)
	return n
}

// clickThrough clicks the person's view where the job's tab shows its point
// (x, y), as the person's own mouse would.
func clickThrough(t *testing.T, view, tab *cdpclient.Page, x, y float64) {
	t.Helper()
	var vp [2]float64
	evalJSON(t, tab, `[innerWidth, innerHeight]`, &vp)
	var r [4]float64
	evalJSON(t, view, `(() => { const r = document.getElementById('screen').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, &r)
	vx, vy := r[0]+x*r[2]/vp[0], r[1]+y*r[3]/vp[1]
	ctx := testCtx(t)
	for _, ev := range []live.MouseEvent{{Type: "mouseMoved", X: vx, Y: vy},
		{Type: "mousePressed", X: vx, Y: vy, Button: "left", Buttons: 1, ClickCount: 1},
		{Type: "mouseReleased", X: vx, Y: vy, Button: "left", ClickCount: 1}} {
		if err := live.DispatchMouse(ctx, view, ev); err != nil {
			t.Fatal(err)
		}
	}
}

func boxOf(t *testing.T, p *cdpclient.Page, selector string) live.Box {
	t.Helper()
	var r [4]float64
	sel, _ := json.Marshal(selector)
	evalJSON(t, p, `(() => { const r = document.querySelector(`+string(sel)+`).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`, &r)
	return live.Box{X: r[0], Y: r[1], W: r[2], H: r[3]}
}

func tabText(t *testing.T, p *cdpclient.Page, expr string) string {
	var s string
	evalJSON(t, p, expr, &s)
	return s
}

// syncBuffer is a log sink several goroutines write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// filesHolding lists the files under dir that contain secret.
func filesHolding(t *testing.T, dir, secret string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil // a browser's file that came and went
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(secret)) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
