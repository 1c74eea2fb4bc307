package wait

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

func TestMain(m *testing.M) { os.Exit(cdptest.Main(m)) }

// Waits for a selector, its removal and a text; one that runs out of time is
// TIMEOUT with a hint, a selector that is not CSS is the caller's mistake even
// when the time ran out first, and a wait spans a navigation, answering where
// the page went.
func TestFor(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/late.html?delay=300")
	for _, s := range []Spec{
		{Target: cdpclient.Target{Selector: "#late"}},
		{Target: cdpclient.Target{Selector: "#spinner"}, State: Detached},
		{Text: "Data loaded: 42", State: Attached},
	} {
		if err := cdpclient.Outcome(For(ctx, p, s)); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	short := func() context.Context {
		c, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		t.Cleanup(cancel)
		return c
	}
	cdptest.WantCode(t, cdpclient.Outcome(For(short(), p, Spec{Text: "never there"})), cdpclient.CodeTimeout)
	var ae *cdpclient.ArgError
	if _, err := For(short(), p, Spec{Target: cdpclient.Target{Selector: "#a["}}); !errors.As(err, &ae) {
		t.Errorf("a selector that is not CSS: %v, want an argument error", err)
	}
	for _, bad := range []Spec{{Text: "x", State: "shown"}, {}, {Text: "x", Target: cdpclient.Target{Selector: "p"}}} {
		if _, err := For(ctx, p, bad); !errors.As(err, &ae) {
			t.Errorf("%+v: %v, want an argument error", bad, err)
		}
	}
	cdptest.Eval(t, ctx, p, "setTimeout(() => location.href = '/second.html', 100), 1")
	fb, err := For(ctx, p, Spec{Text: "Second"})
	if err := cdpclient.Outcome(fb, err); err != nil {
		t.Errorf("a wait across a navigation: %v", err)
	} else if fb.Delta == nil || !strings.HasSuffix(fb.Delta.URL, "/second.html") {
		t.Errorf("a wait across a navigation does not say where the page went: %s", fb.JSON())
	}
}
