package jpegblocks

import (
	"image"
)

// MCU is the side of a minimum coded unit, in pixels: a 16×16 square, four
// 8×8 luma blocks and one of each chroma.
const MCU = 16

// Redraw reads the JPEG data, decodes the MCUs listed in touched (by their
// column and row: pixel x/16, y/16) into an image whose other pixels are
// left zero, lets draw paint on it (within the MCUs listed: what it paints
// elsewhere is lost), and writes the JPEG again: the listed MCUs transformed
// back with the picture's own quantization tables, every other block as the
// browser coded it. The transforms run on two cores. A JPEG not in the
// layout Read takes is ErrLayout.
func Redraw(data []byte, touched []image.Point, draw func(*image.YCbCr)) ([]byte, error) {
	p, err := Read(data)
	if err != nil {
		return nil, err
	}
	var mcus []image.Point
	seen := make(map[image.Point]bool, len(touched))
	for _, m := range touched {
		if m.X >= 0 && m.Y >= 0 && m.X < p.mcusX && m.Y < p.mcusY && !seen[m] {
			seen[m] = true
			mcus = append(mcus, m)
		}
	}
	var sc [3]*scales
	for c := range 3 {
		sc[c] = newScales(&p.quant[p.qid[c]])
	}
	canvas := image.NewYCbCr(image.Rect(0, 0, p.mcusX*MCU, p.mcusY*MCU), image.YCbCrSubsampleRatio420)
	inHalves(mcus, func(m image.Point) {
		p.forMCU(m, canvas, func(c int, b *block, px []uint8, stride int) { toPixels(b, sc[c], px, stride) })
	})
	draw(canvas.SubImage(image.Rect(0, 0, p.Width, p.Height)).(*image.YCbCr))
	inHalves(mcus, func(m image.Point) {
		p.forMCU(m, canvas, func(c int, b *block, px []uint8, stride int) { fromPixels(px, stride, sc[c], b) })
	})
	return p.Write(), nil
}

// inHalves calls fn with each of mcus, the first half on another goroutine.
func inHalves(mcus []image.Point, fn func(image.Point)) {
	half := len(mcus) / 2
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, m := range mcus[:half] {
			fn(m)
		}
	}()
	for _, m := range mcus[half:] {
		fn(m)
	}
	<-done
}

// forMCU calls fn with each of MCU m's six blocks, its component and where
// its samples are in canvas.
func (p *Picture) forMCU(m image.Point, canvas *image.YCbCr, fn func(c int, b *block, px []uint8, stride int)) {
	row := 2 * p.mcusX
	at := 2*m.Y*row + 2*m.X
	for i, b := range [4]*block{&p.y[at], &p.y[at+1], &p.y[at+row], &p.y[at+row+1]} {
		x, y := m.X*MCU+8*(i%2), m.Y*MCU+8*(i/2)
		fn(0, b, canvas.Y[y*canvas.YStride+x:], canvas.YStride)
	}
	c := m.Y*p.mcusX + m.X
	off := m.Y*8*canvas.CStride + m.X*8
	fn(1, &p.cb[c], canvas.Cb[off:], canvas.CStride)
	fn(2, &p.cr[c], canvas.Cr[off:], canvas.CStride)
}
