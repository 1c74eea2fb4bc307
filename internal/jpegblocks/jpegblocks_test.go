package jpegblocks

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// chromium is a screenshot as Chromium encodes it (Page.captureScreenshot,
// JPEG at quality 70, 800×600, of a corpus article): its own Huffman
// tables and an ICC profile.
func chromium(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/chromium-article.jpg")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decode(t testing.TB, data []byte) *image.YCbCr {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	ycc, ok := img.(*image.YCbCr)
	if !ok || ycc.SubsampleRatio != image.YCbCrSubsampleRatio420 {
		t.Fatalf("decoded as %T", img)
	}
	return ycc
}

// Written again with nothing drawn, a picture decodes to the same samples:
// every block is kept as the browser coded it, in one scan or in two
// halves, and its colour profile with it.
func TestWriteKeepsEveryBlock(t *testing.T) {
	var small bytes.Buffer // a picture of few rows, written in one piece
	if err := jpeg.Encode(&small, noise(120, 90), &jpeg.Options{Quality: 70}); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"chromium": chromium(t), "small": small.Bytes()} {
		out, err := Redraw(data, nil, func(*image.YCbCr) {})
		if err != nil {
			t.Fatal(name, err)
		}
		a, b := decode(t, data), decode(t, out)
		for plane, pair := range map[string][2][]uint8{"Y": {a.Y, b.Y}, "Cb": {a.Cb, b.Cb}, "Cr": {a.Cr, b.Cr}} {
			if !bytes.Equal(pair[0], pair[1]) {
				t.Errorf("%s: the %s samples differ", name, plane)
			}
		}
		if name == "chromium" && !bytes.Contains(out, []byte("ICC_PROFILE")) {
			t.Errorf("the colour profile is lost")
		}
	}
}

// A drawing comes out as a decoding, drawing and encoding of the whole
// picture would give it, and every block it does not touch as it was.
func TestRedrawDrawsOnlyWhereTouched(t *testing.T) {
	data := chromium(t)
	red := color.RGBA{0xe6, 0x19, 0x4b, 0xff}
	boxes := []image.Rectangle{image.Rect(33, 41, 210, 75), image.Rect(400, 300, 403, 590), image.Rect(780, 580, 800, 600)}
	paint := func(img *image.YCbCr) {
		for _, r := range boxes {
			Fill(img, r, red)
		}
	}
	touched := MCUs(boxes...)
	in := map[image.Point]bool{}
	for _, m := range touched {
		in[m] = true
	}
	out, err := Redraw(data, touched, paint)
	if err != nil {
		t.Fatal(err)
	}
	was, got := decode(t, data), decode(t, out)
	want := decode(t, data)
	paint(want)
	var sum, n float64
	for py := range 600 {
		for px := range 800 {
			i := got.YOffset(px, py)
			if !in[image.Pt(px/MCU, py/MCU)] {
				if got.Y[i] != was.Y[i] {
					t.Fatalf("(%d,%d) is in no touched MCU and changed: %d → %d", px, py, was.Y[i], got.Y[i])
				}
				continue
			}
			sum += math.Abs(float64(got.Y[i]) - float64(want.Y[i]))
			n++
		}
	}
	// Quality 70's quantization blurs a sharp edge by a few levels: the
	// mean is that, not a misplaced or missing drawing.
	if mean := sum / n; mean > 4 {
		t.Errorf("the touched MCUs are %.1f levels from the drawing on average", mean)
	}
	if c := got.YCbCrAt(300, 42); absDiff(c.Y, was.YCbCrAt(300, 42).Y) != 0 {
		t.Errorf("outside the boxes but in no touched MCU: changed")
	}
	at := got.YCbCrAt(120, 58)
	if r, g, b := color.YCbCrToRGB(at.Y, at.Cb, at.Cr); absDiff(r, red.R) > 12 || absDiff(g, red.G) > 12 || absDiff(b, red.B) > 12 {
		t.Errorf("inside a box: %d,%d,%d, want about %v", r, g, b, red)
	}
}

func absDiff(a, b uint8) int { return int(max(a, b)) - int(min(a, b)) }

// The fast transforms give what T.81 A.3.3's sums give, to a level.
func TestTransformsMatchTheStandard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q [64]uint16
	for k := range q {
		q[k] = uint16(1 + rng.IntN(40))
	}
	s := newScales(&q)
	for range 200 {
		var px [64]uint8
		for i := range px {
			px[i] = uint8(rng.IntN(256))
		}
		var got block
		fromPixels(px[:], 8, s, &got)
		want := referenceForward(px, &q)
		for k := range 64 {
			if d := int(got[k]) - int(want[k]); d < -1 || d > 1 {
				t.Fatalf("forward: coefficient %d is %d, want %d", k, got[k], want[k])
			}
		}
		var back [64]uint8
		toPixels(&got, s, back[:], 8)
		ref := referenceInverse(&got, &q)
		for i := range back {
			if absDiff(back[i], ref[i]) > 1 {
				t.Fatalf("inverse: sample %d is %d, want %d", i, back[i], ref[i])
			}
		}
	}
}

// basis[x][u] is C(u)/2 · cos((2x+1)uπ/16).
func basis(x, u int) float64 {
	c := 1.0
	if u == 0 {
		c = 1 / math.Sqrt2
	}
	return c / 2 * math.Cos(float64(2*x+1)*float64(u)*math.Pi/16)
}

func referenceForward(px [64]uint8, q *[64]uint16) (b block) {
	for k := range 64 {
		n := unzig[k]
		v, u := n/8, n%8
		var f float64
		for y := range 8 {
			for x := range 8 {
				f += basis(y, v) * basis(x, u) * (float64(px[8*y+x]) - 128)
			}
		}
		b[k] = int16(math.Round(f / float64(q[k])))
	}
	return b
}

func referenceInverse(b *block, q *[64]uint16) (px [64]uint8) {
	for y := range 8 {
		for x := range 8 {
			var s float64
			for k := range 64 {
				n := unzig[k]
				s += basis(y, n/8) * basis(x, n%8) * float64(b[k]) * float64(q[k])
			}
			px[8*y+x] = uint8(max(0, min(255, math.Round(s+128))))
		}
	}
	return px
}

// What Chromium does not write is refused, for the caller to decode whole.
func TestReadRefusesOtherLayouts(t *testing.T) {
	var gray bytes.Buffer
	if err := jpeg.Encode(&gray, image.NewGray(image.Rect(0, 0, 64, 64)), nil); err != nil {
		t.Fatal(err)
	}
	full := chromium(t)
	sof := bytes.Index(full, []byte{0xff, 0xc0})
	yuv444 := bytes.Clone(full)
	yuv444[sof+11] = 0x11 // luma sampled as the chroma is
	progressive := bytes.Clone(full)
	progressive[sof+1] = 0xc2
	for name, data := range map[string][]byte{"gray": gray.Bytes(), "4:4:4": yuv444, "progressive": progressive, "png": []byte("\x89PNG\r\n\x1a\n")} {
		if _, err := Read(data); !errors.Is(err, ErrLayout) {
			t.Errorf("%s: %v, want ErrLayout", name, err)
		}
	}
	// Cut short, it is an error, not a picture made up of padding.
	if _, err := Read(full[:len(full)/2]); err == nil {
		t.Errorf("half a picture read without an error")
	}
}

// Whatever the bytes, Redraw returns (no panic, no endless loop), and what
// it does not refuse it writes as a JPEG that decodes.
func FuzzRead(f *testing.F) {
	full := chromium(f)
	f.Add(full)
	f.Add(full[:len(full)/3])
	var small bytes.Buffer
	if err := jpeg.Encode(&small, noise(40, 40), nil); err != nil {
		f.Fatal(err)
	}
	f.Add(small.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Redraw(data, []image.Point{{0, 0}, {1, 1}, {3, 0}}, func(img *image.YCbCr) {
			Fill(img, image.Rect(2, 2, 40, 30), color.RGBA{0xff, 0, 0, 0xff})
		})
		if err != nil {
			return
		}
		// What it takes, it writes as a JPEG a decoder reads.
		if _, derr := jpeg.Decode(bytes.NewReader(out)); derr != nil {
			t.Fatalf("Redraw's output does not decode: %v", derr)
		}
	})
}

func noise(w, h int) image.Image {
	rng := rand.New(rand.NewPCG(3, 4))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.IntN(256))
	}
	return img
}

// Redrawing a fifth of an 800×600 screenshot's MCUs, against decoding and
// encoding it whole:
//
//	go test -run '^$' -bench . ./internal/jpegblocks
func BenchmarkRedraw(b *testing.B) {
	data := chromium(b)
	var touched []image.Point
	for y := range 38 {
		for x := range 50 {
			if (x*7+y*13)%5 == 0 {
				touched = append(touched, image.Pt(x, y))
			}
		}
	}
	b.Run("blocks", func(b *testing.B) {
		for b.Loop() {
			if _, err := Redraw(data, touched, func(*image.YCbCr) {}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			m, err := jpeg.Decode(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			if err := jpeg.Encode(new(bytes.Buffer), m, &jpeg.Options{Quality: 70}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
