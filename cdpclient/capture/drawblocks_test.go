package capture

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/internal/cdptest"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/internal/jpegblocks"
)

// An annotated JPEG is the browser's own picture wherever no mark is drawn,
// sample for sample (only the blocks the marks touch are coded again), and
// the marks are where their boxes are.
func TestAnnotatedJPEGKeepsTheBrowsersBlocks(t *testing.T) {
	t.Parallel()
	p, ctx := cdptest.Open(t, "/snapshot.html")
	if _, err := pagemodel.Snapshot(ctx, p, pagemodel.Options{}); err != nil {
		t.Fatal(err)
	}
	opts := ScreenshotOptions{Format: "jpeg", Quality: 70}
	plain, err := ScreenshotMarked(ctx, p, opts)
	if err != nil || len(plain.Marks) < 3 {
		t.Fatalf("the undrawn picture: %d marks, %v", len(plain.Marks), err)
	}
	opts.Annotate = true
	drawn, _, err := Screenshot(ctx, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	was, got := decodeYCbCr(t, plain.Data), decodeYCbCr(t, drawn)
	touch := &rectPainter{b: got.Bounds()}
	drawMarks(touch, plain.Marks)
	touched := map[image.Point]bool{}
	for _, m := range jpegblocks.MCUs(touch.rects...) {
		touched[m] = true
	}
	kept := 0
	for y := range got.Bounds().Dy() {
		for x := range got.Bounds().Dx() {
			if touched[image.Pt(x/16, y/16)] {
				continue
			}
			kept++
			if i := got.YOffset(x, y); got.Y[i] != was.Y[i] {
				t.Fatalf("(%d,%d) is in no block a mark touches and changed: %d → %d", x, y, was.Y[i], got.Y[i])
			}
		}
	}
	if kept == 0 {
		t.Fatalf("the marks touch every block: nothing to compare")
	}
	for _, m := range plain.Marks {
		want := annotationColors[m.Ref%len(annotationColors)]
		// The luma: the colour's is halved and coarsely quantized.
		y, _, _ := color.RGBToYCbCr(want.R, want.G, want.B)
		if at := got.YCbCrAt(m.X, m.Y+m.H/2).Y; max(at, y)-min(at, y) > 24 {
			t.Errorf("mark %+v: drawn luma %d there, want about %d", m, at, y)
		}
	}
}

func decodeYCbCr(t *testing.T, data []byte) *image.YCbCr {
	t.Helper()
	img := decodeAny(t, data)
	ycc, ok := img.(*image.YCbCr)
	if !ok {
		t.Fatalf("decoded as %T", img)
	}
	return ycc
}

// A picture too large to hold as blocks (a long page's full capture) is
// drawn on whole, and drawn on all the same.
func TestLargePictureDrawnWhole(t *testing.T) {
	var big bytes.Buffer
	if err := jpeg.Encode(&big, image.NewGray(image.Rect(0, 0, 1280, 7000)), &jpeg.Options{Quality: 70}); err != nil {
		t.Fatal(err)
	}
	// Gray is one component: a layout jpegblocks refuses anyway; the size
	// is checked first.
	box := []pagemodel.Box{{Ref: 3, X: 100, Y: 6000, W: 200, H: 40}}
	if _, err := drawOnBlocks(big.Bytes(), marks(box, image.Rect(0, 0, 1280, 7000), point{}, 1280)); !errors.Is(err, errTooLarge) {
		t.Errorf("drawOnBlocks: %v, want errTooLarge", err)
	}
	out, err := drawAnnotations(big.Bytes(), "jpeg", 70, box, point{}, 1280)
	if err != nil {
		t.Fatal(err)
	}
	img := decodeAny(t, out)
	want := annotationColors[3%len(annotationColors)]
	y, _, _ := color.RGBToYCbCr(want.R, want.G, want.B)
	if got := color.GrayModel.Convert(img.At(100, 6020)).(color.Gray).Y; max(got, y)-min(got, y) > 24 {
		t.Errorf("the box's left border: luma %d, want about %d", got, y)
	}
}

func decodeAny(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}
