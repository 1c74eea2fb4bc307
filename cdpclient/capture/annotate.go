package capture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // image.Decode reads the browser's JPEG
	"image/png"
	"strconv"

	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
	"github.com/cdpmcp/cdpmcp/internal/fastjpeg"
	"github.com/cdpmcp/cdpmcp/internal/jpegblocks"
)

// point is a position in CSS pixels.
type point struct{ X, Y float64 }

// annotationColors are told apart easily; a box and its label share one.
var annotationColors = []color.RGBA{
	{0xe6, 0x19, 0x4b, 0xff}, {0x3c, 0xb4, 0x4b, 0xff}, {0x43, 0x63, 0xd8, 0xff}, {0xf5, 0x82, 0x31, 0xff},
	{0x91, 0x1e, 0xb4, 0xff}, {0x00, 0x80, 0x80, 0xff}, {0x9a, 0x63, 0x24, 0xff}, {0x80, 0x00, 0x00, 0xff},
}

// Mark is an element's numbered box on a picture, in the picture's pixels:
// what Annotate draws (seed 000's visual context: a box and a label of the
// same colour, the label at the box's top right). Color is the box's, as
// "#rrggbb".
type Mark struct {
	Ref   int    `json:"ref"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
	W     int    `json:"w"`
	H     int    `json:"h"`
	Color string `json:"color"`
}

// marksOn places boxes on an encoded picture (its size read from its header):
// marks.
func marksOn(data []byte, boxes []pagemodel.Box, origin point, cssWidth float64) ([]Mark, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode screenshot: %w", err)
	}
	return marks(boxes, image.Rect(0, 0, cfg.Width, cfg.Height), origin, cssWidth), nil
}

// marks places boxes on an image of size bounds whose top-left is origin in
// viewport CSS pixels and which shows cssWidth CSS pixels across; those off
// the image are left out.
func marks(boxes []pagemodel.Box, bounds image.Rectangle, origin point, cssWidth float64) []Mark {
	scale := 1.0
	if cssWidth > 0 {
		scale = float64(bounds.Dx()) / cssWidth
	}
	var out []Mark
	for _, b := range boxes {
		r := image.Rect(int((b.X-origin.X)*scale), int((b.Y-origin.Y)*scale),
			int((b.X-origin.X+b.W)*scale), int((b.Y-origin.Y+b.H)*scale))
		if !r.Overlaps(bounds) {
			continue
		}
		c := markColor(b.Ref)
		out = append(out, Mark{Ref: b.Ref, X: r.Min.X, Y: r.Min.Y, W: r.Dx(), H: r.Dy(),
			Color: fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)})
	}
	return out
}

func markColor(ref int) color.RGBA { return annotationColors[ref%len(annotationColors)] }

// drawAnnotations draws each box and its ref number onto an encoded image and
// re-encodes it in format. origin is the image's top-left in viewport CSS
// pixels and cssWidth the width it shows, in CSS pixels.
func drawAnnotations(data []byte, format string, quality int, boxes []pagemodel.Box, origin point, cssWidth float64) ([]byte, error) {
	shown, err := marksOn(data, boxes, origin, cssWidth)
	if err != nil {
		return nil, err
	}
	if len(shown) == 0 {
		return data, nil // nothing to draw: the picture as the browser encoded it
	}
	if format == "jpeg" {
		// Only the blocks the marks touch are decoded and coded again; a
		// layout jpegblocks does not read is decoded whole, below.
		if out, err := drawOnBlocks(data, shown); err == nil {
			return out, nil
		}
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode screenshot: %w", err)
	}
	// A JPEG is drawn on as it decodes, in its own planes (copying it to
	// RGBA first and encoding that back was a third of the time).
	var canvas painter
	var img image.Image
	ycc, isYCC := src.(*image.YCbCr)
	rgba, isRGBA := src.(*image.RGBA) // the browser's PNG decodes so
	switch {
	case isYCC && format == "jpeg":
		canvas, img = yccPainter{ycc}, ycc
	case isRGBA:
		canvas, img = rgbaPainter{rgba}, rgba
	default:
		rgba = image.NewRGBA(src.Bounds())
		draw.Draw(rgba, rgba.Bounds(), src, src.Bounds().Min, draw.Src)
		canvas, img = rgbaPainter{rgba}, rgba
	}
	drawMarks(canvas, shown)
	var out bytes.Buffer
	if format == "jpeg" {
		err = fastjpeg.Encode(&out, img, quality) // on two cores: 11-13 ms is 6-7
	} else {
		err = pngEncoder.Encode(&out, img)
	}
	return out.Bytes(), err
}

// pngEncoder encodes for speed, as the browser encodes the screenshots it
// is asked for (optimizeForSpeed): an 800×600 screenshot of an article with
// 30 marks drawn in 22–25 ms against 26–34 at the default compression, 36.8
// KB against 34.9.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// drawMarks draws each mark's box and its number.
func drawMarks(canvas painter, shown []Mark) {
	for _, m := range shown {
		r, c := image.Rect(m.X, m.Y, m.X+m.W, m.Y+m.H), markColor(m.Ref)
		outline(canvas, r, c, 2)
		label(canvas, r, strconv.Itoa(m.Ref), c)
	}
}

// painter fills rectangles of an image in one colour.
type painter interface {
	fill(r image.Rectangle, c color.RGBA)
	bounds() image.Rectangle
}

type rgbaPainter struct{ img *image.RGBA }

func (p rgbaPainter) fill(r image.Rectangle, c color.RGBA) {
	draw.Draw(p.img, r.Intersect(p.img.Bounds()), &image.Uniform{c}, image.Point{}, draw.Src)
}

func (p rgbaPainter) bounds() image.Rectangle { return p.img.Bounds() }

// yccPainter fills in a YCbCr image's planes (jpegblocks.Fill).
type yccPainter struct{ img *image.YCbCr }

func (p yccPainter) fill(r image.Rectangle, c color.RGBA) { jpegblocks.Fill(p.img, r, c) }

func (p yccPainter) bounds() image.Rectangle { return p.img.Bounds() }

func outline(img painter, r image.Rectangle, c color.RGBA, width int) {
	for _, side := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+width)}, {image.Pt(r.Min.X, r.Max.Y-width), r.Max},
		{r.Min, image.Pt(r.Min.X+width, r.Max.Y)}, {image.Pt(r.Max.X-width, r.Min.Y), r.Max},
	} {
		img.fill(side, c)
	}
}

// label draws text in white on a box of colour c at the top right of r.
func label(img painter, r image.Rectangle, text string, c color.RGBA) {
	const scale, pad = 2, 2
	w := len(text)*(glyphW+1)*scale - scale + 2*pad
	h := glyphH*scale + 2*pad
	at := image.Pt(max(r.Max.X-w, r.Min.X), r.Min.Y)
	if at.Y+h > img.bounds().Max.Y {
		at.Y = img.bounds().Max.Y - h
	}
	img.fill(image.Rect(at.X, at.Y, at.X+w, at.Y+h), c)
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	x := at.X + pad
	for _, ch := range text {
		g := digitGlyphs[ch-'0']
		for row := range glyphH {
			for col := range glyphW {
				if g[row]&(1<<(glyphW-1-col)) != 0 {
					img.fill(image.Rect(x+col*scale, at.Y+pad+row*scale, x+(col+1)*scale, at.Y+pad+(row+1)*scale), white)
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
