package liveview_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
	"github.com/cdpmcp/cdpmcp/liveview"
)

// What the person does in the view reaches the tab as trusted input: a drag,
// a double click, the wheel, keys and composed text; a JavaScript dialog the
// tab opens is shown in the view and answered there.
func TestViewerInput(t *testing.T) {
	t.Parallel()
	tab := newTab(t, jobs, site.URL("/handoff/events.html"))
	url, err := lv.Offer(liveview.Offer{Key: "events", Tab: tab, Title: "job events"})
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Withdraw("events")
	view, _ := openView(t, url)
	waitFor(t, "the tab to take the viewer's size", func() bool {
		var w float64
		eval(t, tab, `innerWidth`, &w)
		return abs(viewer(t, view).Width-w) < 2
	})
	ctx := testCtx(t)
	s := viewer(t, view)
	at := func(x, y float64) (float64, float64) { return s.Left + x, s.Top + y } // 1:1
	mouse := func(typ string, x, y float64, buttons int) {
		vx, vy := at(x, y)
		ev := live.MouseEvent{Type: typ, X: vx, Y: vy, Buttons: buttons}
		if typ == "mousePressed" || typ == "mouseReleased" {
			ev.Button, ev.ClickCount = "left", 1
		}
		if typ == "mouseWheel" {
			ev.DeltaY = 120
		}
		if err := live.DispatchMouse(ctx, view, ev); err != nil {
			t.Fatal(err)
		}
	}
	got := func() []string {
		var g []string
		eval(t, tab, `window.got`, &g)
		return g
	}
	mouse("mouseMoved", 50, 50, 0)
	mouse("mousePressed", 50, 50, 1)
	mouse("mouseMoved", 120, 80, 1)
	mouse("mouseMoved", 200, 100, 1)
	mouse("mouseReleased", 200, 100, 0)
	mouse("mousePressed", 100, 100, 1)
	mouse("mouseReleased", 100, 100, 0)
	mouse("mousePressed", 100, 100, 1)
	mouse("mouseReleased", 100, 100, 0)
	mouse("mouseWheel", 100, 100, 0)
	waitFor(t, "the mouse events", func() bool { return slices.Contains(got(), "wheel") })
	g := strings.Join(got(), ",")
	for _, want := range []string{"down,drag", "drag,up", "dblclick"} {
		if !strings.Contains(g, want) {
			t.Errorf("the tab got %s, lacking %s", g, want)
		}
	}

	// The wheel scrolls the page smoothly: the field is where it ends.
	var scrolled float64
	waitFor(t, "the wheel's scroll to end", func() bool {
		was := scrolled
		eval(t, tab, `new Promise(r => setTimeout(() => r(scrollY), 100))`, &scrolled)
		return scrolled > 0 && scrolled == was
	})
	field := rect(t, tab, "#field")
	mouse("mousePressed", field.X+10, field.Y+field.H/2, 1)
	mouse("mouseReleased", field.X+10, field.Y+field.H/2, 0)
	for _, k := range []live.KeyEvent{{Key: "h", Code: "KeyH", KeyCode: 72, Text: "h"}, {Up: true, Key: "h", Code: "KeyH", KeyCode: 72},
		{Key: "Backspace", Code: "Backspace", KeyCode: 8}, {Up: true, Key: "Backspace", Code: "Backspace", KeyCode: 8},
		{Key: "k", Code: "KeyK", KeyCode: 75, Text: "k"}, {Up: true, Key: "k", Code: "KeyK", KeyCode: 75}} {
		if err := live.DispatchKey(ctx, view, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := live.InsertText(ctx, view, "日本"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the typing", func() bool {
		return evalString(t, tab, `document.getElementById('field').value`) == "k日本"
	})
	if g := strings.Join(got(), ","); !strings.Contains(g, "key h,key Backspace,key k") {
		t.Errorf("keys: %s", g)
	}

	ask := rect(t, tab, "#ask")
	mouse("mousePressed", ask.X+5, ask.Y+5, 1)
	mouse("mouseReleased", ask.X+5, ask.Y+5, 0)
	waitFor(t, "the dialog in the view", func() bool {
		var shown bool
		eval(t, view, `!document.getElementById('dialog').hidden && document.getElementById('dialog-text').textContent.includes('Sure?')`, &shown)
		return shown
	})
	if err := cdpclient.Outcome(view.Click(ctx, cdpclient.Target{Selector: "#dialog-ok"}, cdpclient.ClickOptions{})); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the dialog's answer", func() bool { return tab.Dialog() == nil && slices.Contains(got(), "confirm true") })
}

// On a phone (a small touch screen) the tab takes a phone's layout, and a
// finger on the view reaches it as the browser's own touch: touchstart,
// touchend and the tap's click.
func TestViewerOnAPhone(t *testing.T) {
	t.Parallel()
	tab := newTab(t, jobs, site.URL("/handoff/events.html"))
	url, err := lv.Offer(liveview.Offer{Key: "phone", Tab: tab, Title: "job on a phone"})
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Withdraw("phone")
	ctx := testCtx(t)
	view := newTab(t, person, "about:blank")
	if err := live.SetViewport(ctx, view, 390, 844, 3, true); err != nil {
		t.Fatal(err)
	}
	if err := cdpclient.Outcome(view.Navigate(ctx, url, cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tab to take the phone's size", func() bool {
		var w float64
		eval(t, tab, `screen.width`, &w) // the layout is 980 px wide: the page has no viewport meta, as on a phone
		return viewer(t, view).Frames > 0 && w <= 390 && abs(viewer(t, view).Width-w) < 2
	})
	var touch bool
	if eval(t, tab, `navigator.maxTouchPoints > 0 && matchMedia('(pointer: coarse)').matches`, &touch); !touch {
		t.Error("the tab is not a touch screen while a phone views it")
	}
	// Where the middle of #area is on the tab's screen (the page is laid out
	// 980 px wide and zoomed to fit), and so in the view; tapped until the
	// tab has it (a tap while the view still settles its size may miss).
	var mid [2]float64
	eval(t, tab, `(() => { const r = document.getElementById('area').getBoundingClientRect(), z = visualViewport.scale;
		return [(r.left + r.width / 2 - visualViewport.offsetLeft) * z, (r.top + r.height / 2 - visualViewport.offsetTop) * z]; })()`, &mid)
	waitFor(t, "the tap", func() bool {
		s := viewer(t, view)
		pt := []live.TouchPoint{{X: s.Left + mid[0], Y: s.Top + mid[1]}}
		if err := live.DispatchTouch(ctx, view, "touchStart", pt, 0); err != nil {
			t.Fatal(err)
		}
		if err := live.DispatchTouch(ctx, view, "touchEnd", nil, 0); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // apart enough not to be a double tap
		var g []string
		eval(t, tab, `window.got`, &g)
		return strings.Contains(strings.Join(g, ","), "touchstart 1,touchend") && slices.Contains(g, "tap")
	})
}
