package cdpclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One page per outcome code (fixtures/pages/codes), each proving that the
// feedback diagnoses what really happened.

func codePage(t *testing.T, name string) (*Page, context.Context, string) {
	t.Helper()
	p := newTestPage(t)
	ctx := testContext(t)
	if err := outcome(p.Navigate(ctx, testSite.URL("/codes/"+name+".html"), WaitLoad)); err != nil {
		t.Fatal(err)
	}
	return p, ctx, modelLines(t, ctx, p)
}

// act returns a function that checks an action's answer and logs it.
func act(t *testing.T, name string) func(*feedback.Feedback, error) *feedback.Feedback {
	return func(fb *feedback.Feedback, err error) *feedback.Feedback {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fb.Act = name
		t.Logf("%s → %s", name, fb.JSON())
		return fb
	}
}

func wantFeedback(t *testing.T, fb *feedback.Feedback, code Code, in ...string) {
	t.Helper()
	if fb.Code != int(code) || fb.OK != (code == CodeOK) {
		t.Fatalf("code %d ok %v, want %d (%v): %s", fb.Code, fb.OK, code, code, fb.JSON())
	}
	if code != CodeOK && fb.Hint == "" {
		t.Errorf("failure without hint: %s", fb.JSON())
	}
	for _, s := range in {
		if !strings.Contains(fb.JSON(), s) {
			t.Errorf("feedback lacks %q: %s", s, fb.JSON())
		}
	}
}

func TestCode0Success(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "ok")
	save, agree, old := refOf(t, s, "Save"), refOf(t, s, "I agree"), refOf(t, s, "Old button")
	tg := Target{Ref: save}
	fb := act(t, "click")(p.Click(ctx, tg, ClickOptions{}))
	wantFeedback(t, fb, CodeOK, `"Saved 3 items"`, fmt.Sprintf(`["%s","checked",true]`, agree), fmt.Sprintf(`"removed":["%s"]`, old))
	// (Typing that makes a suggestion list appear: cdpclient/input.)
	q := Target{Ref: refOf(t, s, "Search")}
	// An action that changes nothing answers with nothing but ok.
	fb = act(t, "hover")(p.Hover(ctx, q))
	if fb.Delta != nil || !fb.OK {
		t.Errorf("no-op hover: %s", fb.JSON())
	}
}

func TestCode1NotFound(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "not-found")
	vanish := Target{Ref: refOf(t, s, "Vanishing button")}
	fb := act(t, "click")(p.Click(ctx, vanish, ClickOptions{}))
	wantFeedback(t, fb, CodeOK, `"removed":["`+vanish.Ref+`"]`)
	// The same ref again: stale, and it must not hit the other button.
	fb = act(t, "click")(p.Click(ctx, vanish, ClickOptions{}))
	wantFeedback(t, fb, CodeNotFound, "no longer on the page", "new snapshot")
	missing := Target{Selector: "#nope"}
	fb = act(t, "click")(p.Click(ctx, missing, ClickOptions{}))
	wantFeedback(t, fb, CodeNotFound, "no element matches")
}

func TestCode2Disabled(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "disabled")
	for _, name := range []string{"Pay now", "Next step"} {
		tg := Target{Ref: refOf(t, s, name)}
		fb := act(t, "click")(p.Click(ctx, tg, ClickOptions{}))
		wantFeedback(t, fb, CodeDisabled, "disabled")
	}
	if p.URL() != testSite.URL("/codes/disabled.html") {
		t.Errorf("a disabled link was followed: %s", p.URL())
	}
}

func TestCode3Obscured(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "obscured")
	buy := Target{Ref: refOf(t, s, "Buy")}
	fb := act(t, "click")(p.Click(ctx, buy, ClickOptions{}))
	wantFeedback(t, fb, CodeObscured, "We use cookies", "close or dismiss")
	// The cover is named by a ref the model can act on.
	var cover int
	if _, err := fmt.Sscanf(fb.Hint, "close or dismiss %d", &cover); err != nil || cover == 0 {
		t.Fatalf("hint names no ref: %q", fb.Hint)
	}
	ok := Target{Ref: refOf(t, s, "OK")}
	wantFeedback(t, act(t, "click")(p.Click(ctx, ok, ClickOptions{})), CodeOK)
	wantFeedback(t, act(t, "click")(p.Click(ctx, buy, ClickOptions{})), CodeOK)
}

// A click by ref on a button under a cookie banner: OBSCURED, naming the
// banner, with a hint to close it.
func TestClickCoveredByRef(t *testing.T) {
	t.Parallel()
	p, ctx := openPage(t, "/snapshot.html")
	err := outcome(p.Click(ctx, Target{Ref: refOf(t, modelLines(t, ctx, p), "Under the banner")}, ClickOptions{}))
	wantCode(t, err, CodeObscured)
	var e *Error
	if errors.As(err, &e) && !strings.Contains(e.Hint, "close or dismiss") {
		t.Errorf("hint = %q", e.Hint)
	}
	if !strings.Contains(err.Error(), "Cookie notice") {
		t.Errorf("obscured error does not name the banner: %v", err)
	}
}

// TIMEOUT: an action that did not happen in time. A navigation whose server
// never answers produced no document; one whose document arrived but never
// finished loading did happen, and says it is still loading.
func TestCode4Timeout(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	ctx, cancel := context.WithTimeout(testContext(t), 700*time.Millisecond)
	defer cancel()
	fb := act(t, "navigate")(p.Navigate(ctx, testSite.URL("/slow?ms=30000"), WaitLoad))
	wantFeedback(t, fb, CodeTimeout, "did not answer in time")
	if fb.Delta != nil && (fb.Delta.URL != "" || fb.Delta.Title != "") {
		t.Errorf("a navigation that left the tab where it was names a place: %s", fb.JSON())
	}
	p = newTestPage(t)
	ctx, cancel = context.WithTimeout(testContext(t), testbound.Scale(5*time.Second)) // the document arrives within it, its image never
	defer cancel()
	fb = act(t, "navigate")(p.Navigate(ctx, testSite.URL("/codes/timeout.html"), WaitLoad))
	wantFeedback(t, fb, CodeOK, "had not reached", "still loading")
}

// NAVIGATION: no page to go to, or the page went away. (Typing that the page
// itself interrupts by leaving: cdpclient/input.)
func TestCode5Navigation(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "navigation")
	q := Target{Ref: refOf(t, s, "Query")}
	fb := act(t, "goForward")(p.GoForward(ctx, WaitLoad))
	wantFeedback(t, fb, CodeNavigation, "no page to go forward to")
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	fb = act(t, "click")(p.Click(ctx, q, ClickOptions{}))
	wantFeedback(t, fb, CodeNavigation, "the page is closed")
}

// A click whose handler throws happened: ok, with the exception among the
// errors. (JS_ERROR is for code that did not run: an evaluate's expression
// that threw, in cdpclient/eval's tests.)
func TestCode6JSError(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "js-error")
	tg := Target{Ref: refOf(t, s, "Add to cart")}
	fb := act(t, "click")(p.Click(ctx, tg, ClickOptions{}))
	wantFeedback(t, fb, CodeOK, "TypeError", "Cannot read properties of undefined")
	// An error that comes after the answer is told with the next answer,
	// as before it: not its own.
	late := Target{Ref: refOf(t, s, "Later")}
	fb = act(t, "click")(p.Click(ctx, late, ClickOptions{}))
	wantFeedback(t, fb, CodeOK)
	if len(fb.Errors) != 0 {
		t.Errorf("the late error arrived early: %s", fb.JSON())
	}
	// The handler throws once told to, after the click answered: no clock.
	evalString(t, ctx, p, "String(window.go = true)")
	testbound.Until(t, "the late handler to throw", func() bool { return evalString(t, ctx, p, "String(!!window.lateThrown)") == "true" })
	fb = act(t, "hover")(p.Hover(ctx, late))
	if fb.Before == nil || len(fb.Before.Errors) != 1 || !strings.Contains(fb.Before.Errors[0], "late failure") || len(fb.Errors) != 0 || !fb.OK {
		t.Errorf("the late error is not in the next answer's before: %s", fb.JSON())
	}
}

// A click after which the server answers 500 happened: ok, the status in net.
// NETWORK_ERROR is a navigation that produced no document.
func TestCode7NetworkError(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "network-error")
	tg := Target{Ref: refOf(t, s, "Save")}
	fb := act(t, "click")(p.Click(ctx, tg, ClickOptions{}))
	wantFeedback(t, fb, CodeOK, `{"m":"POST","u":"/status/500","s":500}`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/"
	ln.Close()
	fb = act(t, "navigate")(p.Navigate(ctx, refused, WaitLoad))
	wantFeedback(t, fb, CodeNetworkError, "ERR_CONNECTION_REFUSED")
	// A document that answers 404 is a page to read.
	fb = act(t, "navigate")(p.Navigate(ctx, testSite.URL("/status/404"), WaitLoad))
	wantFeedback(t, fb, CodeOK, `"status":404`, "answered 404")
}

// (PERMISSION: read-only mode refuses an evaluate that may change the page,
// in cdpclient/eval's tests.)

func TestCode9Validation(t *testing.T) {
	t.Parallel()
	p, ctx, s := codePage(t, "validation")
	send := Target{Ref: refOf(t, s, "Send")}
	email := refOf(t, s, "Email")
	fb := act(t, "click")(p.Click(ctx, send, ClickOptions{}))
	wantFeedback(t, fb, CodeValidation, "not submitted", email+"[:]<input type=email required>Email", "fill "+email)
	if testSite.Hits("/echo") != 0 || p.URL() != testSite.URL("/codes/validation.html") {
		t.Errorf("an invalid form was submitted")
	}
}
