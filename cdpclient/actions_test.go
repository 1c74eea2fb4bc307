package cdpclient

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openActions(t *testing.T) (*Page, context.Context) {
	t.Helper()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/actions.html"), WaitLoad)); err != nil {
		t.Fatalf("Navigate: %v", err)
	}
	return p, ctx
}

// evalString evaluates expr and returns its value as a Go string.
func evalString(t *testing.T, ctx context.Context, p *Page, expr string) string {
	t.Helper()
	got, err := p.Evaluate(ctx, expr, EvalOptions{AwaitPromise: true})
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

func TestTypeFillKeys(t *testing.T) {
	t.Parallel()
	p, ctx := openActions(t)
	if err := outcome(p.Type(ctx, Target{Selector: "#name"}, "Zoë 1!", true, false)); err != nil {
		t.Fatalf("Type: %v", err)
	}
	if got := evalString(t, ctx, p, "name.value"); got != "Zoë 1!" {
		t.Errorf("typed value = %q", got)
	}
	if err := outcome(p.Fill(ctx, Target{Selector: "#name"}, "Alice")); err != nil {
		t.Fatalf("Fill: %v", err)
	}
	if got := evalString(t, ctx, p, "name.value"); got != "Alice" {
		t.Errorf("filled value = %q", got)
	}
	if ev := evalString(t, ctx, p, "document.getElementById('events').textContent"); !strings.Contains(ev, "input") || !strings.Contains(ev, "change") {
		t.Errorf("fill fired %q, want input and change", ev)
	}
	if err := outcome(p.Fill(ctx, Target{Selector: "#date"}, "2024-05-06")); err != nil || evalString(t, ctx, p, "date.value") != "2024-05-06" {
		t.Errorf("Fill date: %v", err)
	}
	if err := outcome(p.Fill(ctx, Target{Selector: "#editor"}, "new text")); err != nil || evalString(t, ctx, p, "editor.innerText") != "new text" {
		t.Errorf("Fill contenteditable: %v", err)
	}
	wantCode(t, outcome(p.Fill(ctx, Target{Selector: "#ro"}, "x")), CodeDisabled)
	if err := outcome(p.Type(ctx, Target{Selector: "#name"}, " Smith", false, true)); err != nil {
		t.Fatalf("Type submit: %v", err)
	}
	if got := evalString(t, ctx, p, "submitted.textContent"); got != "submitted Alice Smith" {
		t.Errorf("submitted = %q", got)
	}
	for _, k := range []string{"a", "Shift+Tab", "ArrowLeft", "Control+A", "Enter"} {
		if err := outcome(p.PressKey(ctx, k, Target{Selector: "#keys"})); err != nil {
			t.Fatalf("PressKey(%q): %v", k, err)
		}
	}
	want := "a/KeyA/ Shift/ShiftLeft/S Tab/Tab/S "
	if got := evalString(t, ctx, p, "keylog.textContent"); !strings.HasPrefix(got, want) ||
		!strings.Contains(got, "ArrowLeft/ArrowLeft/") || !strings.Contains(got, "a/KeyA/C") || !strings.Contains(got, "Enter/Enter/") {
		t.Errorf("key log = %q", got)
	}
	var ae *ArgError
	if err := outcome(p.PressKey(ctx, "Hyper+Q", Target{})); !errors.As(err, &ae) {
		t.Errorf("bad key: got %v, want *ArgError", err)
	}
}

func TestSelectUploadHoverScroll(t *testing.T) {
	t.Parallel()
	p, ctx := openActions(t)
	fb, err := p.SelectOption(ctx, Target{Selector: "#color"}, []string{"Blue"})
	if err != nil || !fb.OK || fb.Delta == nil || fb.Delta.Value != "b" {
		t.Fatalf("SelectOption = %s, %v", fb.JSON(), err)
	}
	wantCode(t, outcome(p.SelectOption(ctx, Target{Selector: "#color"}, []string{"Purple"})), CodeNotFound)

	dir := t.TempDir()
	f := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(f, []byte("hi"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := outcome(p.UploadFile(ctx, Target{Selector: "#file"}, []string{f})); err != nil {
		t.Fatalf("UploadFile: %v", err)
	}
	if got := evalString(t, ctx, p, "count.textContent"); got != "a.txt" {
		t.Errorf("uploaded = %q", got)
	}
	var ae *ArgError
	if err := outcome(p.UploadFile(ctx, Target{Selector: "#file"}, []string{filepath.Join(dir, "missing")})); !errors.As(err, &ae) {
		t.Errorf("missing file: got %v", err)
	}
	if err := outcome(p.Hover(ctx, Target{Selector: "#hoverme"})); err != nil {
		t.Fatalf("Hover: %v", err)
	}
	if got := evalString(t, ctx, p, "hoverme.dataset.hovered"); got != "yes" {
		t.Errorf("hovered = %q", got)
	}
	if err := outcome(p.Scroll(ctx, "down", 500, Target{})); err != nil || evalString(t, ctx, p, "String(scrollY >= 400)") != "true" {
		t.Fatalf("Scroll down: %v", err)
	}
	fb, err = p.Scroll(ctx, "up", 5000, Target{})
	if err != nil || fb.Delta == nil || !strings.HasPrefix(fb.Delta.Value, "y=0 ") {
		t.Errorf("Scroll up = %s, %v", fb.JSON(), err)
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
	_, err = p.Evaluate(ctx, "1+1", EvalOptions{})
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
	wantCode(t, outcome(p.HandleDialog(ctx, true, "")), CodeNotFound)
}

// After a popup takes the front, the tab that opened it is brought back to
// the front for input (input to a tab in the background waits seconds for a
// frame).
func TestActOnBackgroundTab(t *testing.T) {
	t.Parallel()
	p, ctx := openActions(t)
	if _, err := p.Evaluate(ctx, "window.open('/second.html'); 1", EvalOptions{}); err != nil {
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

// fill and type are seen by a framework that owns the field's value (React's
// controlled inputs only change through their onChange).
func TestFillReactControlledInputs(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/react.html"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	if err := outcome(p.WaitFor(ctx, WaitSpec{Target: Target{Selector: "#name"}})); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Fill(ctx, Target{Selector: "#name"}, "Ada"); err != nil {
		t.Fatal(err)
	}
	if err := outcome(p.Type(ctx, Target{Selector: "#email"}, "ada@example.com", false, false)); err != nil {
		t.Fatal(err)
	}
	if got := evalString(t, ctx, p, "document.querySelector('#echo').textContent"); got != "Hello Ada" {
		t.Errorf("React saw the filled name as %q", got)
	}
	// The submit button React enables once both fields are set.
	if err := outcome(p.Click(ctx, Target{Selector: "button"}, ClickOptions{})); err != nil {
		t.Fatalf("click the enabled submit: %v", err)
	}
	if got := evalString(t, ctx, p, "document.querySelector('#sent').textContent"); got != "Sent by Ada <ada@example.com>" {
		t.Errorf("React state after submit = %q", got)
	}
	// Filling again replaces React's value rather than appending to it.
	if _, err := p.Fill(ctx, Target{Selector: "#name"}, "Grace"); err != nil {
		t.Fatal(err)
	}
	if got := evalString(t, ctx, p, "document.querySelector('#echo').textContent"); got != "Hello Grace" {
		t.Errorf("after a second fill = %q", got)
	}
}
