package input

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
)

// An HTML5 drag carries the data the page put in dataTransfer to the drop
// target; feedback says what moved.
func TestDragHTML5Kanban(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/kanban.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	fb, err := Drag(ctx, p, cdpclient.Target{Selector: "#c2"}, DragEnd{Target: cdpclient.Target{Selector: "#done"}})
	if err := outcome(fb, err); err != nil {
		t.Fatal(err)
	}
	if got := pageText(t, ctx, p, "#log"); got != "Fix login moved to Done" {
		t.Errorf("log = %q; feedback %s", got, fb.JSON())
	}
	if fb.Delta == nil || !strings.Contains(fb.Delta.Value, "HTML5 drag: moved") || !strings.Contains(fb.Delta.Value, "from To do 2/3 to Done 1/1") {
		t.Errorf("feedback = %s", fb.JSON())
	}
}

// A pointer-driven sortable list dragged by its handle: the intermediate moves
// carry the item past each neighbour.
func TestDragPointerSortable(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/sortable.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	fb, err := Drag(ctx, p, cdpclient.Target{Selector: "li[data-id=a] .handle"}, DragEnd{Target: cdpclient.Target{Selector: "li[data-id=d]"}})
	if err := outcome(fb, err); err != nil {
		t.Fatal(err)
	}
	if got := pageText(t, ctx, p, "#order"); got != "b c d a e" {
		t.Errorf("order = %q; feedback %s", got, fb.JSON())
	}
	if fb.Delta == nil || !strings.Contains(fb.Delta.Value, "pointer drag: moved") || !strings.Contains(fb.Delta.Value, "Priorities 1/5 to Priorities 4/5") {
		t.Errorf("feedback = %s", fb.JSON())
	}
}

// A drag to a drop target that is not on the page does not start: the answer
// is NOT_FOUND (ok false) and nothing moved.
func TestDragToNothingDoesNotStart(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/kanban.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	for _, to := range []cdpclient.Target{{Ref: "99999"}, {Selector: "#no-such-column"}} {
		fb, err := Drag(ctx, p, cdpclient.Target{Selector: "#c2"}, DragEnd{Target: to})
		if err != nil {
			t.Fatal(err)
		}
		if fb.OK || fb.Code != int(cdpclient.CodeNotFound) {
			t.Errorf("drag to %+v: feedback %s, want ok false NOT_FOUND", to, fb.JSON())
		}
	}
	if got := pageText(t, ctx, p, "#log"); got != "no drops" {
		t.Errorf("log = %q after drags to nothing, want nothing moved", got)
	}
}
