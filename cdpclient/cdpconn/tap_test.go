package cdpconn

import (
	"strings"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mafredri/cdp"
)

// Tap hands over the events of the methods asked for, across methods in the
// order the browser sent them, and none after stop.
func TestTapKeepsTheBrowsersOrder(t *testing.T) {
	t.Parallel()
	ctx := testbound.Context(t)
	m, _ := connect(t, nil)
	root, err := m.Open("", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := attachTab(ctx, t, m, cdp.NewClient(root.Conn()), nil)
	var (
		mu  sync.Mutex
		got []string
	)
	stop, err := Tap(s.Conn(), []string{"Runtime.consoleAPICalled", "Runtime.exceptionThrown"}, func(ev Event) {
		mu.Lock()
		defer mu.Unlock()
		what := "exception"
		if ev.Method == "Runtime.consoleAPICalled" {
			what = "log"
			if i := strings.Index(string(ev.Params), `"value":"`); i >= 0 {
				what += " " + string(ev.Params)[i+9:i+10]
			}
		}
		got = append(got, what)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := cdp.NewClient(s.Conn()).Runtime.Enable(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := eval(ctx, s, `console.log("1"); setTimeout(() => { throw new Error("two") }); setTimeout(() => console.log("3"))`); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "three events", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) >= 3
	})
	stop()
	mu.Lock()
	seen := strings.Join(got, ", ")
	mu.Unlock()
	if seen != "log 1, exception, log 3" {
		t.Errorf("events = %s, want log 1, exception, log 3", seen)
	}
	if _, err := eval(ctx, s, `console.log("4")`); err != nil {
		t.Fatal(err)
	}
	if _, err := eval(ctx, s, "1"); err != nil { // the log's event has been read
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 {
		t.Errorf("events after stop: %q", got[3:])
	}
}
