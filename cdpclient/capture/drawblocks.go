package capture

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"

	"github.com/cdpmcp/cdpmcp/internal/jpegblocks"
)

// drawOnBlocks draws the marks on a JPEG the way jpegblocks redraws one:
// the MCUs the marks touch (a fifth of a screenshot's, on most pages) are
// decoded, drawn on and coded again, every other block kept as the browser
// coded it. An 800×600 screenshot takes some 4 ms on two cores, against
// 10–13 ms to decode and encode it whole, and the blocks kept lose nothing
// to a second quantization. A JPEG not in the layout jpegblocks reads
// (jpegblocks.ErrLayout) is an error, for the caller to decode it whole.
func drawOnBlocks(data []byte, shown []Mark) ([]byte, error) {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if cfg.Width*cfg.Height > maxBlockPixels {
		return nil, errTooLarge
	}
	// The drawing is done twice: once to learn which MCUs it touches, then
	// on them.
	touch := &rectPainter{b: image.Rect(0, 0, cfg.Width, cfg.Height)}
	drawMarks(touch, shown)
	return jpegblocks.Redraw(data, jpegblocks.MCUs(touch.rects...), func(img *image.YCbCr) { drawMarks(yccPainter{img}, shown) })
}

// maxBlockPixels is the largest picture drawn on in its blocks: they take
// three times the memory of its pixels (a long page's full capture, 1280 ×
// 16,384, would hold some 95 MB), so a larger one, rare and not an agent
// step's, is decoded whole.
const maxBlockPixels = 3840 * 2160

var errTooLarge = errors.New("capture: a picture this large is drawn on whole")

// rectPainter paints nothing: it lists the rectangles a drawing fills.
type rectPainter struct {
	b     image.Rectangle
	rects []image.Rectangle
}

func (p *rectPainter) fill(r image.Rectangle, _ color.RGBA) {
	p.rects = append(p.rects, r.Intersect(p.b))
}

func (p *rectPainter) bounds() image.Rectangle { return p.b }
