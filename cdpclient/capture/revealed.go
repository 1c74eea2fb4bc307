package capture

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/live"
)

// A password field draws dots; one a "show password" toggle turned into a
// text field draws the password, and a screenshot of it would hand the
// model the secret the text answers mask. So a screenshot paints over the
// secret fields that draw their value (live.RevealedSecretBoxes), as a
// recording's video paints over every secret field; a field that draws
// dots, and every other picture, stays as the browser drew it.

// revealedColour paints over a revealed secret field.
var revealedColour = color.RGBA{0x55, 0x55, 0x55, 0xff}

// revealedPad widens each box, in image pixels (borders, a caret).
const revealedPad = 2

// revealedBoxes are the boxes of the page's revealed secret fields, or why
// they could not be read.
type revealedBoxes struct {
	boxes []live.Box
	err   error
}

// readRevealed reads the page's revealed secret fields beside what the
// caller does next (live.RevealedSecretBoxes runs beside the page's
// actions): the answer comes on the channel.
func readRevealed(ctx context.Context, p *cdpclient.Page) <-chan revealedBoxes {
	out := make(chan revealedBoxes, 1)
	go func() {
		boxes, err := live.RevealedSecretBoxes(ctx, p)
		out <- revealedBoxes{boxes, err}
	}()
	return out
}

// paintRevealed returns the picture s.data with the revealed secret fields'
// boxes painted over; as it is when there are none in it. A failure to read
// them (err) is the screenshot's: a picture that might show one is not
// given out.
func paintRevealed(s shot, boxes []live.Box, err error) ([]byte, error) {
	if err != nil || len(boxes) == 0 {
		return s.data, err
	}
	var img image.Image
	if s.format == "jpeg" {
		img, err = jpeg.Decode(bytes.NewReader(s.data))
	} else {
		img, err = png.Decode(bytes.NewReader(s.data))
	}
	if err != nil {
		return nil, fmt.Errorf("screenshot: reading it to paint over a secret field: %w", err)
	}
	b := img.Bounds()
	scale := 1.0
	if s.width > 0 {
		scale = float64(b.Dx()) / s.width
	}
	var rects []image.Rectangle
	for _, box := range boxes {
		x, y := (box.X-s.origin.X)*scale, (box.Y-s.origin.Y)*scale
		r := image.Rect(int(math.Floor(x))-revealedPad, int(math.Floor(y))-revealedPad,
			int(math.Ceil(x+box.W*scale))+revealedPad, int(math.Ceil(y+box.H*scale))+revealedPad).Intersect(b)
		if !r.Empty() {
			rects = append(rects, r)
		}
	}
	if len(rects) == 0 {
		return s.data, nil // every revealed field is out of the picture
	}
	out := image.NewRGBA(b)
	draw.Draw(out, b, img, b.Min, draw.Src)
	for _, r := range rects {
		draw.Draw(out, r, image.NewUniform(revealedColour), image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if s.format == "jpeg" {
		err = jpeg.Encode(&buf, out, &jpeg.Options{Quality: s.quality})
	} else {
		err = png.Encode(&buf, out)
	}
	if err != nil {
		return nil, fmt.Errorf("screenshot: writing it after painting over a secret field: %w", err)
	}
	return buf.Bytes(), nil
}
