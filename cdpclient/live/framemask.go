package live

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/fastjpeg"
	"github.com/cdpmcp/cdpmcp/internal/jpegblocks"
)

// maskColour paints over secret fields in recorded frames.
var maskColour = color.RGBA{0x55, 0x55, 0x55, 0xff}

// maskPad widens each mask, in image pixels, for a field that moved a little
// between the frame and the measurement.
const maskPad = 4

// MaskSecrets returns f with the tab's secret fields (see SecretBoxes) painted
// over, so that a recording of the tab shows none of what goes into them: not
// the dots' count, not a password a "show" toggle revealed. Boxes measured at
// another scroll offset than the frame's are moved by the difference. A frame
// without such fields comes back as it is; one that cannot be checked (the tab
// is gone) comes back with an error, to be dropped.
func MaskSecrets(ctx context.Context, p *cdpclient.Page, f Frame) (Frame, error) {
	boxes, sx, sy, err := SecretBoxes(ctx, p)
	if err != nil || len(boxes) == 0 {
		return f, err
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(f.Data))
	if err != nil {
		return f, err
	}
	b := image.Rect(0, 0, cfg.Width, cfg.Height)
	m := f.Meta
	scale := 1.0
	if m.DeviceWidth > 0 {
		scale = float64(b.Dx()) / m.DeviceWidth
	}
	zoom := m.PageScaleFactor
	if zoom <= 0 {
		zoom = 1
	}
	var masks []image.Rectangle
	for _, box := range boxes {
		x := (box.X + sx - m.ScrollX) * zoom * scale
		y := ((box.Y+sy-m.ScrollY)*zoom + m.OffsetTop) * scale
		masks = append(masks, image.Rect(int(math.Floor(x))-maskPad, int(math.Floor(y))-maskPad,
			int(math.Ceil(x+box.W*zoom*scale))+maskPad, int(math.Ceil(y+box.H*zoom*scale))+maskPad).Intersect(b))
	}
	touched := jpegblocks.MCUs(masks...)
	if len(touched) == 0 {
		return f, nil // every secret field is out of the frame
	}
	// Only the blocks under the masks are decoded and coded again (see
	// jpegblocks); a frame in another layout is decoded whole.
	data, err := jpegblocks.Redraw(f.Data, touched, func(img *image.YCbCr) {
		for _, r := range masks {
			jpegblocks.Fill(img, r, maskColour)
		}
	})
	if err != nil {
		if data, err = maskWhole(f.Data, masks); err != nil {
			return f, err
		}
	}
	f.Data = data
	return f, nil
}

// maskWhole paints the masks on a JPEG decoded whole and encodes it again.
func maskWhole(data []byte, masks []image.Rectangle) ([]byte, error) {
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	rgba, ok := img.(draw.Image)
	if !ok {
		c := image.NewRGBA(b)
		draw.Draw(c, b, img, b.Min, draw.Src)
		rgba = c
	}
	for _, r := range masks {
		draw.Draw(rgba, r, image.NewUniform(maskColour), image.Point{}, draw.Src)
	}
	var out bytes.Buffer
	if err := fastjpeg.Encode(&out, rgba, 75); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
