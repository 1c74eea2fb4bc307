package capture

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/google/go-cmp/cmp"
	"github.com/mafredri/cdp"
)

// countNodes is the number of nodes in the page's DOM, read in the page's world.
const countNodes = "document.querySelectorAll('*').length + ':' + document.body.innerHTML.length"

// An annotated screenshot carries a coloured box per ref, drawn onto the image:
// the page's DOM stays as it was, before and after a navigation, with frames.
func TestAnnotatedScreenshotLeavesThePageAlone(t *testing.T) {
	t.Parallel()
	p := cdptest.NewPage(t)
	ctx := testbound.Context(t)
	for _, path := range []string{"/behave/throw.html", "/behave/xframe.html"} {
		if err := cdpclient.Outcome(p.Navigate(ctx, cdptest.Site.URL(path), cdpclient.WaitLoad)); err != nil {
			t.Fatal(err)
		}
		s, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		before := cdptest.Eval(t, ctx, p, countNodes)
		data, _, err := Screenshot(ctx, p, ScreenshotOptions{Annotate: true})
		if err != nil {
			t.Fatal(err)
		}
		if after := cdptest.Eval(t, ctx, p, countNodes); after != before {
			t.Errorf("%s: the page changed: %s → %s", path, before, after)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var boxes []pagemodel.Box
		d := p.Door()
		_, err = d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, _ *cdp.Client) error {
			lines, err := pagemodel.Latest(ctx, p)
			if err == nil {
				boxes = refBoxes(ctx, d, snapshot.ElementRefs(lines), false)
			}
			return err
		})
		if err != nil || len(boxes) == 0 {
			t.Fatalf("%s: boxes %v, %v (snapshot %s)", path, boxes, err, s)
		}
		checkDrawn(t, path, img, boxes)
		// The marks of a picture left undrawn are where the boxes are drawn.
		pic, err := ScreenshotMarked(ctx, p, ScreenshotOptions{})
		if err != nil || len(pic.Marks) != len(boxes) {
			t.Fatalf("%s: %d marks for %d boxes, %v", path, len(pic.Marks), len(boxes), err)
		}
		for _, m := range pic.Marks {
			want := annotationColors[m.Ref%len(annotationColors)]
			if got := color.RGBAModel.Convert(img.At(m.X, m.Y+m.H/2)).(color.RGBA); got != want {
				t.Errorf("%s: mark %+v: drawn colour %v there, want %v", path, m, got, want)
			}
		}
		if after := cdptest.Eval(t, ctx, p, countNodes); after != before {
			t.Errorf("%s: the page changed: %s → %s", path, before, after)
		}
	}
}

// checkDrawn checks that each box is drawn on img: its left border, halfway
// down, has the box's colour.
func checkDrawn(t *testing.T, name string, img image.Image, boxes []pagemodel.Box) {
	t.Helper()
	for _, b := range boxes {
		want := annotationColors[b.Ref%len(annotationColors)]
		if got := color.RGBAModel.Convert(img.At(int(b.X), int(b.Y+b.H/2))).(color.RGBA); got != want {
			t.Errorf("%s: ref %d at (%v,%v): colour %v, want %v", name, b.Ref, b.X, b.Y+b.H/2, got, want)
		}
	}
}

func TestDrawAnnotationsScalesToTheImage(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 200, 100))); err != nil {
		t.Fatal(err)
	}
	// A 2× image of a 100×50 CSS pixel viewport, scrolled by (10, 10).
	out, err := drawAnnotations(buf.Bytes(), "png", 0, []pagemodel.Box{{Ref: 7, X: 20, Y: 20, W: 30, H: 20}}, point{X: 10, Y: 10}, 100)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := annotationColors[7%len(annotationColors)]
	// The marks a caller draws itself are where these were drawn.
	got := marks([]pagemodel.Box{{Ref: 7, X: 20, Y: 20, W: 30, H: 20}}, img.Bounds(), point{X: 10, Y: 10}, 100)
	if d := cmp.Diff([]Mark{{Ref: 7, X: 20, Y: 20, W: 60, H: 40, Color: "#800000"}}, got); d != "" {
		t.Errorf("marks (-want +got):\n%s", d)
	}
	if got := color.RGBAModel.Convert(img.At(20, 30)).(color.RGBA); got != want {
		t.Errorf("left border at (20,30) = %v, want %v", got, want)
	}
	if got := color.RGBAModel.Convert(img.At(40, 30)).(color.RGBA); got == want {
		t.Errorf("inside the box is painted")
	}
	// A box off the picture (scrolled out of view) draws nothing: the
	// picture is the browser's, not encoded again.
	var shot bytes.Buffer
	if err := jpeg.Encode(&shot, image.NewRGBA(image.Rect(0, 0, 200, 100)), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	same, err := drawAnnotations(shot.Bytes(), "jpeg", 70, []pagemodel.Box{{Ref: 7, X: 20, Y: 200, W: 30, H: 20}}, point{X: 10, Y: 10}, 100)
	if err != nil || !bytes.Equal(same, shot.Bytes()) {
		t.Errorf("nothing to draw: %d bytes back for %d, %v", len(same), shot.Len(), err)
	}
}
