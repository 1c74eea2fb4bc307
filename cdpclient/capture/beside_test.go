package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/wait"
)

// A picture taken beside the snapshot's walk carries the walk's boxes where
// the elements are in it: after the page scrolled and moved an element
// since the last snapshot, and for an element the last snapshot did not
// show, in the page and in a cross-site frame.
func TestAnnotatedBesideTheWalk(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/agent/list.html")
	if _, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{}); err != nil {
		t.Fatal(err)
	}
	// Since that snapshot: a tall block pushes the button down, a new
	// button appears below it, and the page scrolls by 150 pixels.
	cdptest.Eval(t, ctx, p, `(() => {
		const tall = document.createElement('div'); tall.style.height = '300px';
		inc.before(tall);
		const late = document.createElement('button'); late.id = 'late'; late.textContent = 'Late';
		late.style.cssText = 'margin-left: 300px; width: 120px; height: 40px';
		inc.after(late);
		document.body.style.minHeight = '3000px';
		scrollTo(0, 150);
		return 'ok';
	})()`)
	snap, img, boxes := besideTheWalk(t, ctx, p)
	for _, c := range []struct{ sel, name string }{{"#inc", "Refresh count"}, {"#late", "Late"}} {
		ref, _ := strconv.Atoi(cdptest.RefOf(t, snap, c.name))
		var r struct{ X, Y, W, H float64 }
		box := cdptest.Eval(t, ctx, p, `JSON.stringify((r => ({X: r.left, Y: r.top, W: r.width, H: r.height}))(document.querySelector('`+c.sel+`').getBoundingClientRect()))`)
		if err := json.Unmarshal([]byte(box), &r); err != nil {
			t.Fatal(box, err)
		}
		if !hasBox(boxes, ref) {
			t.Errorf("%s (ref %d): no box among %v", c.name, ref, boxes)
		}
		want := annotationColors[ref%len(annotationColors)]
		if got := colourAt(img, r.X, r.Y+r.H/2); got != want {
			t.Errorf("%s (ref %d) at (%v,%v), where the page has it: colour %v, want the box's %v", c.name, ref, r.X, r.Y+r.H/2, got, want)
		}
	}

	p, ctx = cdptest.Open(t, "/behave/xframe.html")
	if err := cdpclient.Outcome(wait.For(ctx, p, wait.Spec{Target: cdpclient.Target{Selector: "#pay"}})); err != nil {
		t.Fatal(err)
	}
	// The frame's button, once the frame has loaded.
	for range 50 {
		if snap, img, boxes = besideTheWalk(t, ctx, p); strings.Contains(snap, "<button>Pay</button>") {
			break
		}
	}
	if pay, _ := strconv.Atoi(cdptest.RefOf(t, snap, "Pay")); !hasBox(boxes, pay) {
		t.Fatalf("no box for the frame's button %d: %v", pay, boxes)
	}
	for _, b := range boxes {
		if got, want := colourAt(img, b.X, b.Y+b.H/2), annotationColors[b.Ref%len(annotationColors)]; got != want {
			t.Errorf("xframe: ref %d at (%v,%v): colour %v, want %v", b.Ref, b.X, b.Y+b.H/2, got, want)
		}
	}
}

// besideTheWalk takes an annotated screenshot with the snapshot's walk
// beside it, and returns the snapshot, the picture and the walk's boxes.
func besideTheWalk(t *testing.T, ctx context.Context, p *cdpclient.Page) (string, image.Image, []pagemodel.Box) {
	t.Helper()
	var snap string
	var boxes []pagemodel.Box
	data, _, err := Screenshot(ctx, p, ScreenshotOptions{Annotate: true, Meanwhile: func(ctx context.Context) ([]pagemodel.Box, error) {
		var err error
		snap, boxes, err = pagemodel.SnapshotBoxes(ctx, p, pagemodel.Options{})
		return boxes, err
	}})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return snap, img, boxes
}

func hasBox(boxes []pagemodel.Box, ref int) bool {
	for _, b := range boxes {
		if b.Ref == ref {
			return true
		}
	}
	return false
}

// colourAt is the colour of the picture at a box's left border, halfway
// down: x and y in CSS pixels (the box's, rounded as the walk rounds them).
func colourAt(img image.Image, x, y float64) color.RGBA {
	return color.RGBAModel.Convert(img.At(int(math.Round(x)), int(y))).(color.RGBA)
}
