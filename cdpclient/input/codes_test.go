package input

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
)

// Typing on the outcome-code pages (fixtures/pages/codes): the feedback says
// what really happened.

// act returns a function that checks an action's answer (done) and logs it.
func act(t *testing.T, name string) func(*feedback.Feedback, error) *feedback.Feedback {
	return func(fb *feedback.Feedback, err error) *feedback.Feedback {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fb.Act = name
		t.Logf("%s → %s", name, fb.JSON())
		if !fb.OK {
			t.Fatalf("%s failed: %s", name, fb.JSON())
		}
		return fb
	}
}

func wantInFeedback(t *testing.T, fb *feedback.Feedback, in ...string) {
	t.Helper()
	for _, s := range in {
		if !strings.Contains(fb.JSON(), s) {
			t.Errorf("feedback lacks %q: %s", s, fb.JSON())
		}
	}
}

// Typing makes a suggestion list appear: added elements, with new refs.
func TestTypeShowsWhatAppeared(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/codes/ok.html")
	q := cdpclient.Target{Ref: refOf(t, snapshot(t, ctx, p, pagemodel.Options{}), "Search")}
	fb := act(t, "type")(Type(ctx, p, q, "ap", false, false))
	wantInFeedback(t, fb, `"<a>apple</a>"]`, `"<a>apricot</a>"]`)
	if fb.Delta == nil || len(fb.Delta.Added) != 2 {
		t.Errorf("added = %+v", fb.Delta)
	}
}

// Typing that the page itself interrupts by leaving did happen in part, and
// says how much.
func TestTypeIntoAPageThatLeaves(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/codes/navigation.html")
	q := cdpclient.Target{Ref: refOf(t, snapshot(t, ctx, p, pagemodel.Options{}), "Query")}
	fb := act(t, "type")(Type(ctx, p, q, "abcdefghijklmnop", false, false))
	wantInFeedback(t, fb, "navigated away after", "/second.html")
}

// Typing with submit into a form the browser's validation refuses: the text
// went in, so the answer is ok (a retry would type it twice), with the
// refusal as its error and the form not sent.
func TestTypeSubmitRefusedKeepsTheText(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/codes/validation.html")
	email := refOf(t, snapshot(t, ctx, p, pagemodel.Options{}), "Email")
	fb := act(t, "type")(Type(ctx, p, cdpclient.Target{Ref: email}, "bob", false, true))
	wantInFeedback(t, fb, "the text was typed, but the form was not submitted: "+email+"[:]", "do not type it again")
	if got := evalString(t, ctx, p, "document.getElementById('email').value + '|' + location.pathname"); got != "bob|/codes/validation.html" {
		t.Errorf("value|path = %q, want the text once and the form not sent", got)
	}
}

// A field that refuses what is put in it says so: a number field given
// letters is left empty (ok, with the error that it took nothing), and one
// that keeps part of it (a maxlength) says what it holds.
func TestFieldsThatRefuseInput(t *testing.T) {
	t.Parallel()
	p, ctx := open(t, "/codes/refused-input.html")
	age := cdpclient.Target{Selector: "#age"}
	for name, fb := range map[string]*feedback.Feedback{
		"fill": act(t, "fill")(Fill(ctx, p, age, "abc")),
		"type": act(t, "type")(Type(ctx, p, age, "abc", true, false)),
	} {
		if fb.Incomplete == "" || !strings.Contains(fb.Incomplete, "did not take the") {
			t.Errorf("%s letters into a number field: %s", name, fb.JSON())
		}
	}
	fb := act(t, "type")(Type(ctx, p, cdpclient.Target{Selector: "#code"}, "abcdef", false, false))
	if fb.Delta == nil || fb.Delta.Value != "abc" {
		t.Errorf("typing past a maxlength: %s, want delta.value abc", fb.JSON())
	}
	fb = act(t, "fill")(Fill(ctx, p, age, "42"))
	if fb.Incomplete != "" || (fb.Delta != nil && fb.Delta.Value != "") {
		t.Errorf("a number into a number field: %s", fb.JSON())
	}
}
