package jpegblocks

import (
	"image"
	"image/color"
)

// MCUs lists the MCUs the rectangles cover, each once, in the order the
// rectangles first reach them: what Redraw is to decode for a drawing that
// paints within them.
func MCUs(rects ...image.Rectangle) []image.Point {
	seen := map[image.Point]bool{}
	var out []image.Point
	for _, r := range rects {
		if r.Empty() {
			continue
		}
		for y := r.Min.Y / MCU; y <= (r.Max.Y-1)/MCU; y++ {
			for x := r.Min.X / MCU; x <= (r.Max.X-1)/MCU; x++ {
				if m := image.Pt(x, y); !seen[m] {
					seen[m] = true
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// Fill paints r of img in c: luma a pixel each, chroma a sample each,
// shared by neighbouring pixels as the image subsamples it (a colour edge
// reaches a pixel past r at most; a white or grey one is sharp, in the
// luma).
func Fill(img *image.YCbCr, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	y, cb, cr := color.RGBToYCbCr(c.R, c.G, c.B)
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			img.Y[img.YOffset(px, py)] = y
			i := img.COffset(px, py)
			img.Cb[i], img.Cr[i] = cb, cr
		}
	}
}
