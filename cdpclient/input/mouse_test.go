package input

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/google/go-cmp/cmp"
)

// The mouse at viewport coordinates, on a canvas that records what it gets in
// its own coordinates (it sits at 50,80 with a 1px border).
func TestMouseOnCanvas(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p := newTestPage(t)
	if err := outcome(p.Navigate(ctx, cdptest.Site.URL("/parity/canvas.html"), cdpclient.WaitLoad)); err != nil {
		t.Fatal(err)
	}
	steps := []MouseInput{
		{Action: "click", X: 151, Y: 131},
		{Action: "dblclick", X: 61, Y: 91},
		{Action: "click", X: 71, Y: 101, Button: "right"},
		{Action: "wheel", X: 101, Y: 101, DY: 120},
		{Action: "down", X: 201, Y: 181},
		{Action: "move", X: 231, Y: 201},
		{Action: "up", X: 251, Y: 211},
		{Action: "drag", X: 81, Y: 81, ToX: 301, ToY: 281},
	}
	for _, in := range steps {
		fb, err := Mouse(ctx, p, in)
		if err := outcome(fb, err); err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		if fb.Delta == nil || !strings.Contains(fb.Delta.Value, "<canvas") {
			t.Errorf("%+v: feedback does not say what is under the pointer: %s", in, fb.JSON())
		}
	}
	got := strings.Split(strings.TrimSpace(pageText(t, ctx, p, "#log")), "\n")
	want := []string{
		"down 100,50 b0", "up 100,50", "click 100,50",
		"down 10,10 b0", "up 10,10", "click 10,10", "down 10,10 b0", "up 10,10", "click 10,10", "dblclick 10,10",
		"down 20,20 b2", "contextmenu 20,20", "up 20,20",
		"wheel 50,20 0,120",
		"down 150,100 b0", "up 200,130 dragged 2", "click 200,130",
		// A drag of 297 px: the move that starts it, 18 steps, one at rest.
		"down 30,0 b0", "up 250,200 dragged 20", "click 250,200",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("canvas log (-want +got):\n%s", diff)
	}
	_, err := Mouse(ctx, p, MouseInput{Action: "click", X: 5000, Y: 10})
	if ae, ok := err.(*cdpclient.ArgError); !ok || !strings.Contains(ae.Hint, "the viewport is") {
		t.Errorf("a click outside the viewport: %v", err)
	}
}
