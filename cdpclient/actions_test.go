package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mafredri/cdp/protocol/emulation"
)

func openActions(t *testing.T) (*Page, context.Context) {
	t.Helper()
	return openPage(t, "/actions.html")
}

// evalString evaluates expr and returns its value as a Go string.
func evalString(t *testing.T, ctx context.Context, p *Page, expr string) string {
	t.Helper()
	got, err := evaluate(ctx, p, expr)
	if err != nil {
		t.Fatalf("Evaluate(%q): %v", expr, err)
	}
	var s string
	if json.Unmarshal([]byte(got), &s) != nil {
		return got
	}
	return s
}

func wantCode(t *testing.T, err error, want Code) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *Error with code %v", err, err, want)
	}
	if e.Code != want {
		t.Fatalf("code = %v (%v), want %v", e.Code, err, want)
	}
	if e.Hint == "" {
		t.Errorf("error %q has no hint", err)
	}
}

func TestClick(t *testing.T) {
	t.Parallel()
	p, ctx := openActions(t)
	if err := outcome(p.Click(ctx, Target{Selector: "#inc"}, ClickOptions{})); err != nil {
		t.Fatalf("Click: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "1" {
		t.Errorf("count = %q, want 1", got)
	}
	if err := outcome(p.Click(ctx, Target{Selector: "#dbl"}, ClickOptions{ClickCount: 2})); err != nil {
		t.Fatalf("double click: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "double" {
		t.Errorf("after double click count = %q", got)
	}
	if err := outcome(p.Click(ctx, Target{Selector: "#ctx"}, ClickOptions{Button: "right"})); err != nil {
		t.Fatalf("right click: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "right" {
		t.Errorf("after right click count = %q", got)
	}
	// Below the fold: scrolled into view first.
	if err := outcome(p.Click(ctx, Target{Selector: "#bottom"}, ClickOptions{})); err != nil {
		t.Fatalf("click bottom: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "bottom" {
		t.Errorf("after bottom click count = %q", got)
	}
	// Inside an open shadow root.
	if err := outcome(p.Click(ctx, Target{Selector: "#inner"}, ClickOptions{})); err != nil {
		t.Fatalf("click shadow: %v", err)
	}
	if got := evalString(t, ctx, p, "host.shadowRoot.getElementById('st').textContent"); got != "clicked" {
		t.Errorf("shadow status = %q", got)
	}
}

func TestClickFailures(t *testing.T) {
	t.Parallel()
	p, ctx := openActions(t)
	wantCode(t, outcome(p.Click(ctx, Target{Selector: "#disabled"}, ClickOptions{})), CodeDisabled)
	wantCode(t, outcome(p.Click(ctx, Target{Selector: "#aria-disabled"}, ClickOptions{})), CodeDisabled)
	err := outcome(p.Click(ctx, Target{Selector: "#covered"}, ClickOptions{}))
	wantCode(t, err, CodeObscured)
	if !strings.Contains(err.Error(), "Cookie banner") {
		t.Errorf("obscured error %q does not name the cover", err)
	}
	wantCode(t, outcome(p.Click(ctx, Target{Selector: "#nope"}, ClickOptions{})), CodeNotFound)
	var ae *ArgError
	if err := outcome(p.Click(ctx, Target{Selector: "##bad"}, ClickOptions{})); !errors.As(err, &ae) {
		t.Errorf("invalid selector: got %v, want *ArgError", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "0" {
		t.Errorf("a refused click changed the page: count = %q", got)
	}
}

func TestDialogs(t *testing.T) {
	t.Parallel()
	p, ctx := openActions(t)
	// The click returns although the alert blocks the page.
	err := outcome(p.Click(ctx, Target{Selector: "#alert"}, ClickOptions{}))
	t.Logf("click alert: %v", err)
	if d := p.Dialog(); d == nil || d.Message != "hello alert" {
		t.Fatalf("Dialog() = %+v", d)
	}
	_, err = evaluate(ctx, p, "1+1")
	var de *DialogOpenError
	if !errors.As(err, &de) {
		t.Fatalf("evaluate with dialog open: %v", err)
	}
	if err := outcome(p.HandleDialog(ctx, true, "")); err != nil {
		t.Fatalf("HandleDialog: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "after alert" {
		t.Errorf("after alert count = %q", got)
	}
	err = outcome(p.Click(ctx, Target{Selector: "#prompt"}, ClickOptions{}))
	t.Logf("click prompt: %v", err)
	if err := outcome(p.HandleDialog(ctx, true, "Bob")); err != nil {
		t.Fatalf("HandleDialog prompt: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "prompt:Bob" {
		t.Errorf("prompt result = %q", got)
	}
	// Accepted with no text, a prompt answers its default, as OK does for a
	// person; the feedback that reported it said what the default was.
	fb, err := p.Click(ctx, Target{Selector: "#prompt"}, ClickOptions{})
	if err != nil || fb.Dialog == nil || fb.Dialog.Default != "def" {
		t.Errorf("the prompt's report = %s, %v", fb.JSON(), err)
	}
	if err := outcome(p.HandleDialog(ctx, true, "")); err != nil {
		t.Fatalf("HandleDialog prompt with no text: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "prompt:def" {
		t.Errorf("prompt accepted with no text = %q, want its default", got)
	}
	wantCode(t, outcome(p.HandleDialog(ctx, true, "")), CodeNotFound)
}

// After a popup takes the front, the tab that opened it is brought back to
// the front for input (input to a tab in the background waits seconds for a
// frame).
func TestActOnBackgroundTab(t *testing.T) {
	t.Parallel()
	p, ctx := openActions(t)
	if _, err := evaluate(ctx, p, "window.open('/second.html'); 1"); err != nil {
		t.Fatal(err)
	}
	t.Logf("the opener after the popup: %s", evalString(t, ctx, p, "document.visibilityState"))
	for i := 0; i < 3; i++ {
		if err := outcome(p.Click(ctx, Target{Selector: "#inc"}, ClickOptions{})); err != nil {
			t.Fatalf("click %d on the opener: %v", i, err)
		}
		if got := evalString(t, ctx, p, "document.visibilityState"); got != "visible" {
			t.Errorf("the opener is %s after click %d, want visible (in front)", got, i)
		}
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "3" {
		t.Errorf("count = %q", got)
	}
}

// Only an action that made a call to the page's own site (or a submit the
// page took over in script) waits the quiet window for what it brings; one
// that starts nothing, or only tells another site (analytics), answers
// without it (the benchmark BenchmarkFeedbackFollow measures both).
func TestFollowOnlyWhatTheActionStarted(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/behave/late-effects.html?ms=300")
	fb, err := p.Click(ctx, Target{Selector: "#dead"}, ClickOptions{})
	if err := outcome(fb, err); err != nil || fb.Followed || fb.Delta != nil {
		t.Errorf("a click that starts nothing: %v, followed %v, %s", err, fb.Followed, fb.JSON())
	}
	fb, err = p.Click(ctx, Target{Selector: "#track"}, ClickOptions{})
	if err := outcome(fb, err); err != nil || fb.Followed {
		t.Errorf("a click that only calls another site (analytics): %v, followed %v, %s", err, fb.Followed, fb.JSON())
	}
	fb, err = p.Click(ctx, Target{Selector: "#load"}, ClickOptions{})
	if err := outcome(fb, err); err != nil || !fb.Followed || fb.Delta == nil || len(fb.Delta.Text) == 0 {
		t.Errorf("a click whose call changes the page: %v, followed %v, %s", err, fb.Followed, fb.JSON())
	}
	// A submit the page takes over in script, with its call after a timer.
	if err := outcome(p.Navigate(ctx, testSite.URL("/behave/late-effects.html"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	fb, err = p.Click(ctx, Target{Selector: "#later"}, ClickOptions{})
	if err := outcome(fb, err); err != nil || !fb.Followed || !strings.Contains(fb.JSON(), "Saved after a pause") {
		t.Errorf("a submit handled in script: %v, followed %v, %s", err, fb.Followed, fb.JSON())
	}
}

// On a slow renderer (a loaded machine; here the CPU throttled tenfold) the
// same late effects are in the answer: a timer due and a body being read
// when the quiet window ends by the clock run before it closes, and the
// round trips that find them wait for a slow answer.
func TestFollowOnASlowRenderer(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	for _, c := range []struct{ path, sel, want string }{
		{"/behave/late-effects.html", "#later", "Saved after a pause"},
		{"/behave/late-effects.html?ms=600", "#load", "Report ready"},
	} {
		if err := outcome(p.Navigate(ctx, testSite.URL(c.path), WaitLoad)); err != nil {
			t.Fatal(err)
		}
		if err := p.c.Emulation.SetCPUThrottlingRate(ctx, emulation.NewSetCPUThrottlingRateArgs(10)); err != nil {
			t.Fatal(err)
		}
		fb, err := p.Click(ctx, Target{Selector: c.sel}, ClickOptions{})
		if err := outcome(fb, err); err != nil || !fb.Followed || !strings.Contains(fb.JSON(), c.want) {
			t.Errorf("%s on a slow renderer: %v, followed %v, %s", c.sel, err, fb.Followed, fb.JSON())
		}
		if err := p.c.Emulation.SetCPUThrottlingRate(ctx, emulation.NewSetCPUThrottlingRateArgs(1)); err != nil {
			t.Fatal(err)
		}
	}
}

// Hovering what a CSS :hover rule opens (no attribute changes, no node is
// added) says what appeared, with refs to act on.
func TestHoverShowsACSSMenu(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/actions.html")
	evalString(t, ctx, p, `document.body.insertAdjacentHTML('afterbegin', '<style>.m{display:none}.wrap:hover .m{display:block}</style><div class="wrap"><span id="menu">Menu</span><div class="m"><a href="#a">CSS item</a></div></div>'); 'ok'`)
	fb, err := p.Hover(ctx, Target{Selector: "#menu"})
	if err != nil || !fb.OK || fb.Delta == nil || !strings.Contains(fmt.Sprint(fb.Delta.Added), "<a>CSS item</a>") {
		t.Errorf("hover over a :hover menu = %s, %v", fb.JSON(), err)
	}
}

// An element its style places off the page, beyond where the page scrolls,
// is no click target: the answer says where it is, not that the page moved.
func TestClickOffThePage(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/actions.html")
	evalString(t, ctx, p, `document.body.insertAdjacentHTML('afterbegin', '<button id="away" style="transform:translateX(-5000px)" onclick="count.textContent = \'away\'">Offscreen</button>'); 'ok'`)
	fb, err := p.Click(ctx, Target{Selector: "#away"}, ClickOptions{})
	if err != nil || fb.OK || fb.Code != int(CodeNotFound) || !strings.Contains(fb.Msg, "lies outside the page") {
		t.Errorf("click off the page = %s, %v", fb.JSON(), err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got == "away" {
		t.Error("the button off the page was clicked")
	}
}

// An action named by a selector that matches several elements says so: the
// first that shows was acted on.
func TestSelectorOfManySaysSo(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/actions.html")
	fb, err := p.Click(ctx, Target{Selector: "button"}, ClickOptions{})
	if err != nil || !fb.OK || !strings.Contains(fb.Hint, "the selector matched") {
		t.Errorf("a click on one of many = %s, %v", fb.JSON(), err)
	}
	fb, err = p.Click(ctx, Target{Selector: "#inc"}, ClickOptions{})
	if err != nil || !fb.OK || strings.Contains(fb.Hint, "matched") {
		t.Errorf("a click on the one match = %s, %v", fb.JSON(), err)
	}
}
