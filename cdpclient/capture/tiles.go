package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// A full page in a person's tab (the default context of a browser cdpmcp
// attached to) is taken in tiles, scrolling as a person taking a scrolling
// screenshot would, and the scroll put back: capturing beyond the viewport
// resizes the page's viewport to the whole page and back, which the page
// sees (two resize events, a layout at the new size: its 100vh blocks
// stretched, its resize handlers run) in a tab the person is using. The page
// sees scrolls instead, and keeps its size. Fixed and sticky elements show
// in each tile they stay on.

// scrollTo scrolls the page to x, y from cdpmcp's world and answers where
// it is once the page has drawn a frame there (the browser may stop short
// of x, y at the page's end), or after 200 ms in a page that draws none.
const scrollTo = `(x, y) => new Promise(done => {
	scrollTo(x, y);
	const at = () => done([scrollX, scrollY]);
	setTimeout(at, 200);
	requestAnimationFrame(() => requestAnimationFrame(at));
})`

// tiled takes the clip (page CSS pixels, at clip.Scale) in viewport-sized
// tiles, each captured as the viewport shows it, and puts the page's scroll
// back to scroll. Called inside Door.Run.
func tiled(ctx context.Context, d cdpclient.Door, c *cdp.Client, args *page.CaptureScreenshotArgs, clip page.Viewport, view, scroll point, format string, quality int) (data []byte, err error) {
	defer func() {
		if _, backErr := scrollPage(ctx, d, scroll); err == nil && backErr != nil {
			err = backErr
		}
	}()
	var canvas *image.RGBA
	for y := clip.Y; y < clip.Y+clip.Height; y += view.Y {
		for x := clip.X; x < clip.X+clip.Width; x += view.X {
			at, err := scrollPage(ctx, d, point{X: x, Y: y})
			if err != nil {
				return nil, err
			}
			// The part of the clip the viewport shows from where it is.
			tile := page.Viewport{X: x, Y: y, Width: math.Min(view.X-(x-at.X), clip.X+clip.Width-x),
				Height: math.Min(view.Y-(y-at.Y), clip.Y+clip.Height-y), Scale: clip.Scale}
			if tile.Width <= 0 || tile.Height <= 0 {
				return nil, fmt.Errorf("full page in tiles: the page did not scroll to %.0f,%.0f (it is at %.0f,%.0f)", x, y, at.X, at.Y)
			}
			a := *args
			a.SetClip(tile)
			shot, err := take(ctx, c, &a)
			if err != nil {
				return nil, err
			}
			img, _, err := image.Decode(bytes.NewReader(shot))
			if err != nil {
				return nil, fmt.Errorf("full page in tiles: decode a tile: %w", err)
			}
			// The browser's pixels per clip pixel (the device's, times
			// the scale asked for).
			ratio := float64(img.Bounds().Dx()) / tile.Width
			if canvas == nil {
				canvas = image.NewRGBA(image.Rect(0, 0, int(math.Ceil(clip.Width*ratio)), int(math.Ceil(clip.Height*ratio))))
			}
			at0 := image.Pt(int(math.Round((x-clip.X)*ratio)), int(math.Round((y-clip.Y)*ratio)))
			draw.Draw(canvas, img.Bounds().Add(at0), img, img.Bounds().Min, draw.Src)
		}
	}
	if canvas == nil {
		return nil, fmt.Errorf("full page in tiles: the page has no size")
	}
	var buf bytes.Buffer
	if format == "jpeg" {
		err = jpeg.Encode(&buf, canvas, &jpeg.Options{Quality: quality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, canvas)
	}
	if err != nil {
		return nil, fmt.Errorf("full page in tiles: encode: %w", err)
	}
	return buf.Bytes(), nil
}

// scrollPage scrolls to to and answers where the page is.
func scrollPage(ctx context.Context, d cdpclient.Door, to point) (point, error) {
	r, err := d.CallInWorld(ctx, scrollTo, to.X, to.Y)
	if err != nil {
		return point{}, fmt.Errorf("scroll for a tile: %w", err)
	}
	if r.ExceptionDetails != nil {
		return point{}, fmt.Errorf("scroll for a tile: %s", r.ExceptionDetails.Text)
	}
	var at [2]float64
	if err := json.Unmarshal(r.Result.Value, &at); err != nil {
		return point{}, fmt.Errorf("scroll for a tile: %w", err)
	}
	return point{X: at[0], Y: at[1]}, nil
}
