package fastjpeg

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// picture is a test picture of w×h with edges, gradients and flat areas, as
// a screenshot has.
func picture(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x ^ y) & 0xff), 255}
			if (x/37+y/23)%5 == 0 {
				c = color.RGBA{250, 250, 250, 255}
			}
			m.SetRGBA(x, y, c)
		}
	}
	return m
}

// asDecoded is m as a screenshot arrives: a decoded JPEG (YCbCr 4:2:0).
func asDecoded(t *testing.T, m image.Image) image.Image {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	d, err := jpeg.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Encoded in halves, a picture decodes to exactly the pixels of its whole
// encoding by image/jpeg, at any size (edges that do not fill a 16-pixel
// unit, an odd number of unit rows, a sub-image not at the origin), from
// YCbCr and RGBA; a picture too small to split is image/jpeg's bytes.
func TestHalvesDecodeAsTheWhole(t *testing.T) {
	sizes := []image.Point{{800, 600}, {801, 599}, {1280, 720}, {17, 300}, {640, 129}, {320, 128}}
	for _, size := range sizes {
		rgba := picture(size.X, size.Y)
		inner := rgba.SubImage(image.Rect(3, 5, size.X, size.Y))
		for name, m := range map[string]image.Image{"ycbcr": asDecoded(t, rgba), "rgba": rgba, "sub-image": inner} {
			t.Run(fmt.Sprintf("%dx%d %s", size.X, size.Y, name), func(t *testing.T) {
				var got, want bytes.Buffer
				if err := Encode(&got, m, 70); err != nil {
					t.Fatal(err)
				}
				if err := jpeg.Encode(&want, m, &jpeg.Options{Quality: 70}); err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(got.Bytes(), []byte{0xff, 0xdd, 0, 4}) || !bytes.Contains(got.Bytes(), []byte{0xff, 0xd0}) {
					t.Fatalf("not encoded in halves (%d bytes)", got.Len())
				}
				g, err := jpeg.Decode(bytes.NewReader(got.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				w, err := jpeg.Decode(bytes.NewReader(want.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				if g.Bounds().Size() != w.Bounds().Size() {
					t.Fatalf("size %v, want %v", g.Bounds().Size(), w.Bounds().Size())
				}
				gy, wy := g.(*image.YCbCr), w.(*image.YCbCr)
				for _, plane := range [][2][]byte{{gy.Y, wy.Y}, {gy.Cb, wy.Cb}, {gy.Cr, wy.Cr}} {
					if !bytes.Equal(plane[0], plane[1]) {
						t.Fatal("the pixels differ from the whole encoding's")
					}
				}
			})
		}
	}
	small := picture(200, 100)
	var got, want bytes.Buffer
	if err := Encode(&got, small, 70); err != nil {
		t.Fatal(err)
	}
	_ = jpeg.Encode(&want, small, &jpeg.Options{Quality: 70})
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Error("a small picture is not image/jpeg's own encoding")
	}
}

// What is not the layout image/jpeg writes is refused, not joined.
func TestSplitRefusesOtherLayouts(t *testing.T) {
	var b bytes.Buffer
	_ = jpeg.Encode(&b, picture(64, 64), &jpeg.Options{Quality: 70})
	j := b.Bytes()
	for name, in := range map[string][]byte{
		"empty":     nil,
		"no EOI":    j[:len(j)-2],
		"truncated": append(append([]byte{}, j[:40]...), 0xff, 0xd9),
		"with DRI":  append(append(append([]byte{}, j[:2]...), 0xff, 0xdd, 0, 4, 0, 1), j[2:]...),
	} {
		if _, _, err := split(in); err == nil {
			t.Errorf("%s: split", name)
		}
	}
	if _, _, err := split(j); err != nil {
		t.Errorf("image/jpeg's own: %v", err)
	}
}

func BenchmarkEncode(b *testing.B) {
	m := picture(800, 600)
	var d bytes.Buffer
	_ = jpeg.Encode(&d, m, &jpeg.Options{Quality: 90})
	src, _ := jpeg.Decode(&d)
	b.Run("image/jpeg", func(b *testing.B) {
		for b.Loop() {
			_ = jpeg.Encode(&bytes.Buffer{}, src, &jpeg.Options{Quality: 70})
		}
	})
	b.Run("halves", func(b *testing.B) {
		for b.Loop() {
			_ = Encode(&bytes.Buffer{}, src, 70)
		}
	})
}
