package eval_test

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/eval"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/internal/poll"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// One browser and one fixtures server per test binary (cdptest); each test
// gets a fresh page in its own browser context.
func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// An expression that throws is JS_ERROR naming the message and where it was
// thrown; read-only mode refuses one that may change the page (PERMISSION)
// and reads what does not.
func TestEvaluateErrors(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/codes/permission.html")
	_, err := eval.Evaluate(ctx, p, "(function check() { throw new RangeError('bad total') })()", eval.Options{AwaitPromise: true})
	cdptest.WantCode(t, err, cdpclient.CodeJSError)
	if !strings.Contains(err.Error(), "RangeError: bad total (at check") {
		t.Errorf("exception without message and frame: %v", err)
	}
	_, err = eval.Evaluate(ctx, p, "document.querySelector('#p').textContent = 'changed'", eval.Options{SideEffectFree: true})
	cdptest.WantCode(t, err, cdpclient.CodePermission)
	if got, _ := eval.Evaluate(ctx, p, "document.querySelector('#p').textContent", eval.Options{SideEffectFree: true}); got != `"Read-only mode refuses side effects."` {
		t.Errorf("read-only evaluate changed the page or failed to read: %s", got)
	}
	var ae *cdpclient.ArgError
	if _, err := eval.Evaluate(ctx, p, "  ", eval.Options{}); !errors.As(err, &ae) {
		t.Errorf("an empty expression: %v", err)
	}
	// With an element, an expression that is no function of it says how to
	// write one.
	_, err = eval.Evaluate(ctx, p, "el.textContent", eval.Options{Target: cdpclient.Target{Selector: "#p"}})
	if e := cdptest.WantCode(t, err, cdpclient.CodeJSError); e != nil && !strings.Contains(e.Hint, "(el) => el.textContent") {
		t.Errorf("an element's expression that is no function: hint %q", e.Hint)
	}
}

// With a ref, the expression is a function of the element, called in the
// page's world of the element's frame; an object it returns is read in that
// frame's session, a cross-site frame's too.
func TestEvaluateOnElementInFrames(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/snapshot.html")
	email := regexp.MustCompile(`(?m)^(\d+)\[:\]<input[^>]*>Frame email`)
	var refs [][]string
	// The cross-site frame loads after the page.
	if err := poll.Until(ctx, 50*time.Millisecond, func() (bool, error) {
		s, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{MaxTokens: -1})
		refs = email.FindAllStringSubmatch(s, -1)
		return len(refs) == 2, err
	}); err != nil {
		t.Fatalf("two frames' email fields: %v (%v)", refs, err)
	}
	for i, m := range refs {
		on := eval.Options{Target: cdpclient.Target{Ref: m[1]}}
		if _, err := eval.Evaluate(ctx, p, "(el) => { el.value = 'f@x.io'; }", on); err != nil {
			t.Fatalf("set the value in frame %d: %v", i, err)
		}
		got, err := eval.Evaluate(ctx, p, "(el) => ({id: el.id, value: el.value})", on)
		if err != nil || got != `{"id":"fe","value":"f@x.io"}` {
			t.Errorf("evaluate on the element in frame %d = %s, %v", i, got, err)
		}
	}
	var ae *cdpclient.ArgError
	if _, err := eval.Evaluate(ctx, p, "document.title", eval.Options{Target: cdpclient.Target{Ref: refs[0][1]}}); !errors.As(err, &ae) {
		t.Errorf("an expression that is not a function of the element: %v", err)
	}
}

// An endless expression is the caller's own work, not a stuck page: it is
// stopped before the call's deadline, the answer says so (TIMEOUT), and the
// page answers the next call.
func TestEvaluateEndlessIsStopped(t *testing.T) {
	t.Parallel()
	p, _ := cdptest.Open(t, "/home.html")
	short, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := eval.Evaluate(short, p, "while (true) {}", eval.Options{})
	if e := cdptest.WantCode(t, err, cdpclient.CodeTimeout); !strings.Contains(e.Msg, "was stopped") || !strings.Contains(e.Hint, "endless loops") {
		t.Errorf("an endless expression: %v (hint %q)", err, e.Hint)
	}
	if got, err := eval.Evaluate(testbound.Context(t), p, "document.title", eval.Options{}); err != nil || got == "" {
		t.Errorf("evaluate after the endless one: %s %v", got, err)
	}
}
