package capture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"strconv"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
)

// point is a position in CSS pixels.
type point struct{ X, Y float64 }

// annotationColors are told apart easily; a box and its label share one.
var annotationColors = []color.RGBA{
	{0xe6, 0x19, 0x4b, 0xff}, {0x3c, 0xb4, 0x4b, 0xff}, {0x43, 0x63, 0xd8, 0xff}, {0xf5, 0x82, 0x31, 0xff},
	{0x91, 0x1e, 0xb4, 0xff}, {0x00, 0x80, 0x80, 0xff}, {0x9a, 0x63, 0x24, 0xff}, {0x80, 0x00, 0x00, 0xff},
}

// drawAnnotations draws each box and its ref number onto an encoded image (seed
// 000's visual context: a box and a label of the same colour, the label at the
// box's top right) and re-encodes it in format. origin is the image's top-left
// in viewport CSS pixels and cssWidth the width it shows, in CSS pixels.
func drawAnnotations(data []byte, format string, quality int, boxes []pagemodel.Box, origin point, cssWidth float64) ([]byte, error) {
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode screenshot: %w", err)
	}
	scale := 1.0
	if cssWidth > 0 {
		scale = float64(src.Bounds().Dx()) / cssWidth
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	for _, b := range boxes {
		c := annotationColors[b.Ref%len(annotationColors)]
		r := image.Rect(int((b.X-origin.X)*scale), int((b.Y-origin.Y)*scale),
			int((b.X-origin.X+b.W)*scale), int((b.Y-origin.Y+b.H)*scale))
		if !r.Overlaps(img.Bounds()) {
			continue
		}
		outline(img, r, c, 2)
		label(img, r, strconv.Itoa(b.Ref), c)
	}
	var out bytes.Buffer
	if format == "jpeg" {
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: quality})
	} else {
		err = png.Encode(&out, img)
	}
	return out.Bytes(), err
}

func outline(img *image.RGBA, r image.Rectangle, c color.RGBA, width int) {
	u := &image.Uniform{c}
	for _, side := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+width)}, {image.Pt(r.Min.X, r.Max.Y-width), r.Max},
		{r.Min, image.Pt(r.Min.X+width, r.Max.Y)}, {image.Pt(r.Max.X-width, r.Min.Y), r.Max},
	} {
		draw.Draw(img, side.Intersect(img.Bounds()), u, image.Point{}, draw.Src)
	}
}

// label draws text in white on a box of colour c at the top right of r.
func label(img *image.RGBA, r image.Rectangle, text string, c color.RGBA) {
	const scale, pad = 2, 2
	w := len(text)*(glyphW+1)*scale - scale + 2*pad
	h := glyphH*scale + 2*pad
	at := image.Pt(max(r.Max.X-w, r.Min.X), r.Min.Y)
	if at.Y+h > img.Bounds().Max.Y {
		at.Y = img.Bounds().Max.Y - h
	}
	bg := image.Rect(at.X, at.Y, at.X+w, at.Y+h)
	draw.Draw(img, bg.Intersect(img.Bounds()), &image.Uniform{c}, image.Point{}, draw.Src)
	white := &image.Uniform{color.White}
	x := at.X + pad
	for _, ch := range text {
		g := digitGlyphs[ch-'0']
		for row := range glyphH {
			for col := range glyphW {
				if g[row]&(1<<(glyphW-1-col)) != 0 {
					px := image.Rect(x+col*scale, at.Y+pad+row*scale, x+(col+1)*scale, at.Y+pad+(row+1)*scale)
					draw.Draw(img, px.Intersect(img.Bounds()), white, image.Point{}, draw.Src)
				}
			}
		}
		x += (glyphW + 1) * scale
	}
}

// A 5×7 bitmap font for the digits: one row per byte, the high five bits.
const glyphW, glyphH = 5, 7

var digitGlyphs = [10][glyphH]byte{
	{0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}, // 0
	{0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}, // 1
	{0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}, // 2
	{0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}, // 3
	{0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}, // 4
	{0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}, // 5
	{0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}, // 6
	{0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}, // 7
	{0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}, // 8
	{0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}, // 9
}
