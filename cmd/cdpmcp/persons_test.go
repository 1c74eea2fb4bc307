//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mafredri/cdp/rpcc"
	"github.com/mark3labs/mcp-go/mcp"
)

// personsBrowser is a Chromium a person started with --remote-debugging-port,
// its one tab showing path: the browser cdpmcp attaches to in these tests.
type personsBrowser struct {
	*fixtures.Chromium
	endpoint string
}

func startPersonsBrowser(t *testing.T, path string) *personsBrowser {
	t.Helper()
	port, err := fixtures.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	c, err := fixtures.StartChromium(port, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	pb := &personsBrowser{Chromium: c, endpoint: fmt.Sprintf("http://127.0.0.1:%d", port)}
	tabs := pb.tabs(t)
	if len(tabs) != 1 {
		t.Fatalf("the person's browser starts with %d tabs", len(tabs))
	}
	pb.eval(t, tabs[0], "location.href = "+jsString(site.URL(path)))
	testbound.Until(t, "the person's tab to show "+path, func() bool {
		tabs := pb.tabs(t)
		return len(tabs) == 1 && strings.HasSuffix(tabs[0].URL, path) && pb.eval(t, tabs[0], "document.readyState") == `"complete"`
	})
	return pb
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

// personsTab is a tab as the browser lists it on /json/list.
type personsTab struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	WS  string `json:"webSocketDebuggerUrl"`
}

// tabs lists the browser's tabs, as the person (or any DevTools client) sees them.
func (pb *personsBrowser) tabs(t *testing.T) []personsTab {
	t.Helper()
	res, err := http.Get(pb.endpoint + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var all []struct {
		personsTab
		Type string `json:"type"`
	}
	if err := json.NewDecoder(res.Body).Decode(&all); err != nil {
		t.Fatal(err)
	}
	var out []personsTab
	for _, x := range all {
		if x.Type == "page" {
			out = append(out, x.personsTab)
		}
	}
	return out
}

// tab is the one tab whose address ends in suffix, or nil.
func (pb *personsBrowser) tab(t *testing.T, suffix string) *personsTab {
	t.Helper()
	for _, x := range pb.tabs(t) {
		if strings.HasSuffix(x.URL, suffix) {
			return &x
		}
	}
	return nil
}

// eval runs expr in the tab over a DevTools connection of its own (as another
// tool of the person's would), and returns its value as JSON, or what went
// wrong ("no answer" when the page does not answer within 5 s).
func (pb *personsBrowser) eval(t *testing.T, tab personsTab, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := rpcc.DialContext(ctx, tab.WS)
	if err != nil {
		return "dial: " + err.Error()
	}
	defer conn.Close()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
	}
	if err := rpcc.Invoke(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r, conn); err != nil {
		if ctx.Err() != nil {
			return "no answer"
		}
		return "eval: " + err.Error()
	}
	return string(r.Result.Value)
}

// A session in a person's browser, ended cleanly (its client closes stdin,
// or SIGTERM), leaves the browser as the person had it: the tabs cdpmcp
// opened (newPage, the popup that tab opened, one the cdp tool's
// Target.createTarget opened) are closed, a popup the
// person's own tab opened stays (it is theirs: a sign-in window its opener
// waits for), and the person's tab, which cdpmcp's new tab hid, is in front
// again.
func TestLettingGoLeavesThePersonsBrowserAsFound(t *testing.T) {
	t.Parallel()
	for _, ending := range []string{"stdin closed", "SIGTERM"} {
		t.Run(ending, func(t *testing.T) {
			t.Parallel()
			pb := startPersonsBrowser(t, "/home.html")
			s := startStdio(t, "persons-letgo", "--cdp-endpoint", pb.endpoint)
			ctx := testCtx(t, testbound.Bound())
			if _, err := initialize(ctx, s.c, "2025-06-18"); err != nil {
				t.Fatal(err)
			}
			mustCall(t, ctx, s.c, "newPage", map[string]any{"url": site.URL("/second.html")})
			mustCall(t, ctx, s.c, "evaluate", map[string]any{"expression": "window.open('/hash.html?from=cdpmcp'), 1"})
			mustCall(t, ctx, s.c, "cdp", map[string]any{"domain": "Target", "method": "createTarget", "page": "browser",
				"params": map[string]any{"url": site.URL("/hash.html?from=cdp")}})
			mustCall(t, ctx, s.c, "switchPage", map[string]any{"page": "p1"})
			mustCall(t, ctx, s.c, "evaluate", map[string]any{"expression": "window.open('/hash.html?from=person'), 1"})
			testbound.Until(t, "the popups and the tab to open", func() bool {
				return pb.tab(t, "from=cdpmcp") != nil && pb.tab(t, "from=person") != nil && pb.tab(t, "from=cdp") != nil
			})
			persons := pb.tab(t, "/home.html")
			if v := pb.eval(t, *persons, "document.visibilityState"); v != `"hidden"` {
				t.Fatalf("cdpmcp's tabs did not come to the front: the person's tab is %s", v)
			}
			if ending == "SIGTERM" {
				if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
				testbound.Until(t, "the server to exit", func() bool { return syscall.Kill(s.cmd.Process.Pid, 0) != nil })
			} else if err := s.c.Close(); err != nil {
				t.Fatalf("the server's exit: %v", err)
			}
			var urls []string
			for _, x := range pb.tabs(t) {
				urls = append(urls, x.URL)
			}
			if len(urls) != 2 || pb.tab(t, "/home.html") == nil || pb.tab(t, "from=person") == nil {
				t.Errorf("after cdpmcp let go, the person's browser has the tabs %q; want their own tab and the popup it opened", urls)
			}
			// The tab in front before cdpmcp came is in front again.
			if v := pb.eval(t, *persons, "document.visibilityState"); v != `"visible"` {
				t.Errorf("the person's tab is %s after cdpmcp let go; it was in front before", v)
			}
		})
	}
}

// A dialog left open in the person's tab by a cdpmcp that was killed (no
// clean-up) holds the tab: its page answers no DevTools call, and the browser
// does not hand the dialog to a new connection. The next session still lists
// the tab, says why it does not answer, and works in the person's other tabs.
func TestTabADialogHoldsIsListedByTheNextSession(t *testing.T) {
	t.Parallel()
	pb := startPersonsBrowser(t, "/home.html")
	ctx := testCtx(t, testbound.Bound())
	killed := startStdio(t, "persons-killed", "--cdp-endpoint", pb.endpoint)
	if _, err := initialize(ctx, killed.c, "2025-06-18"); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, killed.c, "navigate", map[string]any{"url": site.URL("/second.html")})
	if text, _ := callTool(t, ctx, killed.c, "navigate", map[string]any{"url": site.URL("/confirm.html")}); !strings.Contains(text, "Delete everything?") {
		testbound.Until(t, "the page's confirm dialog", func() bool {
			text, _ := callTool(t, ctx, killed.c, "getTitle", nil)
			return strings.Contains(text, "Delete everything?")
		})
	}
	if err := killed.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	held := pb.tab(t, "/confirm.html")
	if held == nil || pb.eval(t, *held, "1") != "no answer" {
		t.Fatalf("the dialog does not hold the tab after cdpmcp was killed: %v", held)
	}

	next := startStdio(t, "persons-next", "--cdp-endpoint", pb.endpoint)
	if _, err := initialize(ctx, next.c, "2025-06-18"); err != nil {
		t.Fatal(err)
	}
	list := mustCall(t, ctx, next.c, "listPages", nil)
	if !strings.Contains(list, "/confirm.html (does not answer: a JavaScript dialog is most likely open in it)") {
		t.Fatalf("the next session's tabs:\n%s", list)
	}
	text, isErr := callTool(t, ctx, next.c, "snapshot", nil)
	if !isErr || !strings.Contains(text, "does not answer: a JavaScript dialog is most likely open in it") {
		t.Errorf("a snapshot of the held tab: %s", text)
	}
	// The person's other tabs are cdpmcp's to work in meanwhile.
	mustCall(t, ctx, next.c, "newPage", map[string]any{"url": site.URL("/home.html")})
	if title := mustCall(t, ctx, next.c, "getTitle", nil); !strings.Contains(title, "Fixtures home") {
		t.Errorf("a new tab beside the held one: %s", title)
	}
}

// A full-page screenshot of the person's tab does not resize it (capturing
// beyond the viewport resizes the page to its whole length and back: its
// resize handlers run and it lays itself out again, in a tab the person
// uses). The picture is still the whole page, to its end, and the page is
// left scrolled where it was.
func TestFullPageOfThePersonsTabKeepsItsSize(t *testing.T) {
	t.Parallel()
	pb := startPersonsBrowser(t, "/persons/resize.html")
	tab := *pb.tab(t, "/persons/resize.html")
	pb.eval(t, tab, "scrollTo(0, 120)")
	before := pb.eval(t, tab, "[innerWidth, innerHeight, scrollY]")
	s := startStdio(t, "persons-fullpage", "--cdp-endpoint", pb.endpoint)
	ctx := testCtx(t, testbound.Bound())
	if _, err := initialize(ctx, s.c, "2025-06-18"); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "screenshot"
	req.Params.Arguments = map[string]any{"fullPage": true}
	res, err := s.c.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("screenshot: %v %v", err, res)
	}
	var img image.Image
	for _, ct := range res.Content {
		if ic, ok := ct.(mcp.ImageContent); ok {
			raw, _ := base64.StdEncoding.DecodeString(ic.Data)
			if img, _, err = image.Decode(bytes.NewReader(raw)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if img == nil {
		t.Fatalf("no image in %v", res.Content)
	}
	if v := pb.eval(t, tab, "[resizes, sizes]"); !strings.HasPrefix(v, "[0,") {
		t.Errorf("the person's page saw resizes [count, sizes]: %s", v)
	}
	if after := pb.eval(t, tab, "[innerWidth, innerHeight, scrollY]"); after != before {
		t.Errorf("the person's page was %s before the screenshot, %s after", before, after)
	}
	// The whole page (3000 px and more), drawn to its end: the page's
	// gradient ends bluish grey (#ccd), not blank.
	b := img.Bounds()
	if b.Dy() < 3000 {
		t.Errorf("the full page is %d px high; the page is over 3000", b.Dy())
	}
	if r, g, bl, _ := img.At(b.Dx()/2, b.Max.Y-2).RGBA(); bl>>8 < 210 || r>>8 > 215 || g>>8 > 215 {
		t.Errorf("the page's end is rgb(%d,%d,%d) in the picture; it is #ccd", r>>8, g>>8, bl>>8)
	}
}
