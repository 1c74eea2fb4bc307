package busy

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The watchdog probes after busyAfter, sooner when the call's deadline is
// near, but never sooner than half a probe; the second probe is twice the
// first's patience, less when the deadline is nearer, never nothing.
func TestProbeTimings(t *testing.T) {
	if got := nextProbe(context.Background()); got != busyAfter {
		t.Errorf("next probe without a deadline = %v, want %v", got, busyAfter)
	}
	if got := secondProbe(context.Background()); got != 2*probeTimeout {
		t.Errorf("second probe without a deadline = %v, want %v", got, 2*probeTimeout)
	}
	far, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if got := nextProbe(far); got != busyAfter {
		t.Errorf("next probe an hour before the deadline = %v, want %v", got, busyAfter)
	}
	near, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if got := nextProbe(near); got >= busyAfter || got < probeTimeout/2 {
		t.Errorf("next probe 3 s before the deadline = %v, want less than %v and at least %v", got, busyAfter, probeTimeout/2)
	}
	gone, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-gone.Done()
	if got := nextProbe(gone); got != probeTimeout/2 {
		t.Errorf("next probe past the deadline = %v, want %v", got, probeTimeout/2)
	}
	if got := secondProbe(gone); got != time.Millisecond {
		t.Errorf("second probe past the deadline = %v, want %v", got, time.Millisecond)
	}
}

// A caller's script stops a quarter of the time left before the deadline,
// at most scriptStopMargin before it; without a deadline it has none.
func TestScriptDeadline(t *testing.T) {
	ctx, cancel := ScriptDeadline(context.Background())
	defer cancel()
	if _, ok := ctx.Deadline(); ok {
		t.Error("a script with no deadline got one")
	}
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	ctx, cancel = ScriptDeadline(parent)
	defer cancel()
	pd, _ := parent.Deadline()
	if d, _ := ctx.Deadline(); pd.Sub(d) != scriptStopMargin {
		t.Errorf("an hour's script stops %v before the deadline, want %v", pd.Sub(d), scriptStopMargin)
	}
	parent, cancel = context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	ctx, cancel = ScriptDeadline(parent)
	defer cancel()
	pd, _ = parent.Deadline()
	if d, _ := ctx.Deadline(); pd.Sub(d) > 500*time.Millisecond || !d.Before(pd) {
		t.Errorf("a 2 s script stops %v before the deadline, want at most a quarter of it", pd.Sub(d))
	}
}

// Only the page-model walk's binding counts as progress.
func TestOnBinding(t *testing.T) {
	w := New(nil)
	start := time.Now().Add(-time.Millisecond)
	if w.OnBinding([]byte(`{"name":"somethingElse","payload":""}`)) || w.OnBinding([]byte(`not json`)) {
		t.Error("another binding was taken for progress")
	}
	if w.progressed(start, time.Minute) {
		t.Error("progress without a report")
	}
	if !w.OnBinding([]byte(`{"name":"` + ProgressBinding + `","payload":""}`)) {
		t.Error("the walk's report was not taken for progress")
	}
	if !w.progressed(start, time.Minute) {
		t.Error("the walk's report did not count")
	}
	if w.progressed(time.Now().Add(time.Minute), time.Minute) {
		t.Error("a report before start counted")
	}
}

func TestMessages(t *testing.T) {
	e := &Error{Since: time.Now().Add(-3 * time.Second)}
	if !strings.HasPrefix(e.Error(), "the page is busy: a script has kept it from answering for 3 s") {
		t.Errorf("busy: %q", e.Error())
	}
	if s := (&ScriptTimeout{After: 1500 * time.Millisecond, Stopped: true}).Error(); !strings.Contains(s, "after 1.5 s") || !strings.Contains(s, "was stopped") {
		t.Errorf("stopped script: %q", s)
	}
	if s := (&ScriptTimeout{After: 2 * time.Second}).Error(); s != "the expression's promise did not settle within 2.0 s" {
		t.Errorf("unsettled promise: %q", s)
	}
}

func TestNavigatingMessage(t *testing.T) {
	e := &Navigating{URL: "http://a.test/slow", Since: time.Now().Add(-12 * time.Second)}
	if s := e.Error(); !strings.HasPrefix(s, "the tab is waiting for http://a.test/slow to answer (12 s)") || strings.Contains(s, "script") {
		t.Errorf("navigating: %q", s)
	}
}
