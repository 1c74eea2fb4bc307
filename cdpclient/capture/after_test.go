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
	"github.com/mafredri/cdp"
)

// A picture taken after the snapshot's walk, under the same hold of the
// page, carries the walk's boxes where the elements are in it: after the page scrolled and moved an element
// since the last snapshot, for an element the last snapshot did not show,
// and in a frame of a scrolled page.
func TestAnnotatedAfterTheWalk(t *testing.T) {
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
	snap, img, boxes := afterTheWalk(t, ctx, p)
	for _, c := range []struct{ sel, name string }{{"#inc", "Refresh count"}, {"#late", "Late"}} {
		ref, _ := strconv.Atoi(cdptest.RefOf(t, snap, c.name))
		var r struct{ X, Y, W, H float64 }
		box := cdptest.Eval(t, ctx, p, `JSON.stringify((r => ({X: r.left, Y: r.top, W: r.width, H: r.height}))(document.querySelector('`+c.sel+`').getBoundingClientRect()))`)
		if err := json.Unmarshal([]byte(box), &r); err != nil {
			t.Fatal(box, err)
		}
		if _, ok := boxOf(boxes, ref); !ok {
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
	// The frame's button, once the frame has loaded, on a page scrolled by
	// 30 pixels.
	cdptest.Eval(t, ctx, p, `document.body.style.minHeight = '3000px'; scrollTo(0, 30); 'ok'`)
	for range 50 {
		if snap, img, boxes = afterTheWalk(t, ctx, p); strings.Contains(snap, "<button>Pay</button>") {
			break
		}
	}
	pay := cdptest.RefOf(t, snap, "Pay")
	n, _ := strconv.Atoi(pay)
	b, ok := boxOf(boxes, n)
	if !ok {
		t.Fatalf("no box for the frame's button %d: %v", n, boxes)
	}
	// Where the core has it (the browser's content quads, placed by the
	// frame's <iframe>).
	var x, y float64
	_, err := p.Door().Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
		e, err := p.Resolve(ctx, cdpclient.Target{Ref: pay})
		if err == nil {
			_, x, y, err = e.Clip(ctx, false)
		}
		return err
	})
	if err != nil || math.Abs(b.X-x) > 1 || math.Abs(b.Y-y) > 1 {
		t.Errorf("the frame's button: box at (%v,%v), the core has it at (%v,%v) (%v)", b.X, b.Y, x, y, err)
	}
	for _, b := range boxes {
		if got, want := colourAt(img, b.X, b.Y+b.H/2), annotationColors[b.Ref%len(annotationColors)]; got != want {
			t.Errorf("xframe: ref %d at (%v,%v): colour %v, want %v", b.Ref, b.X, b.Y+b.H/2, got, want)
		}
	}
}

// afterTheWalk takes an annotated screenshot with the snapshot's walk
// before it, and returns the snapshot, the picture and the walk's boxes.
func afterTheWalk(t *testing.T, ctx context.Context, p *cdpclient.Page) (string, image.Image, []pagemodel.Box) {
	t.Helper()
	var snap string
	var boxes []pagemodel.Box
	data, _, err := Screenshot(ctx, p, ScreenshotOptions{Annotate: true, Before: func(ctx context.Context) ([]pagemodel.Box, error) {
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

func boxOf(boxes []pagemodel.Box, ref int) (pagemodel.Box, bool) {
	for _, b := range boxes {
		if b.Ref == ref {
			return b, true
		}
	}
	return pagemodel.Box{}, false
}

// colourAt is the colour of the picture at a box's left border, halfway
// down: x and y in CSS pixels (the box's, rounded as the walk rounds them).
func colourAt(img image.Image, x, y float64) color.RGBA {
	return color.RGBAModel.Convert(img.At(int(math.Round(x)), int(y))).(color.RGBA)
}
