package jpegblocks

import "math"

// The transforms are Arai, Agui and Nakajima's factorisation of the 8-point
// DCT (1988; W. B. Pennebaker and J. L. Mitchell, "JPEG: Still Image Data
// Compression Standard", §4.3.5): five multiplications a row, its outputs
// scaled by aan[u]·aan[v]/8, which the quantization tables absorb
// (scales), so a block costs a few hundred additions rather than the
// thousands of multiplications of the transform as T.81 A.3.3 writes it.

// unzig maps a coefficient's zig-zag index to its index in natural (row by
// row) order.
var unzig = [64]int{
	0, 1, 8, 16, 9, 2, 3, 10,
	17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34,
	27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36,
	29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46,
	53, 60, 61, 54, 47, 55, 62, 63,
}

// aan[k] is the factorisation's scale of frequency k: 1, then √2·cos(kπ/16).
var aan = func() (s [8]float64) {
	s[0] = 1
	for k := 1; k < 8; k++ {
		s[k] = math.Sqrt2 * math.Cos(float64(k)*math.Pi/16)
	}
	return s
}()

// scales is a quantization table turned into the factors the transforms
// use, in zig-zag order: inverse dequantizes a coefficient and scales it for
// idct, forward scales fdct's output and quantizes it.
type scales struct {
	inverse, forward [64]float32
}

func newScales(q *[64]uint16) *scales {
	var s scales
	for k := range 64 {
		n := unzig[k]
		f := aan[n/8] * aan[n%8]
		s.inverse[k] = float32(float64(q[k]) * f / 8)
		s.forward[k] = float32(1 / (float64(q[k]) * f * 8))
	}
	return &s
}

// toPixels dequantizes b and writes its 8×8 samples to out at stride.
func toPixels(b *block, s *scales, out []uint8, stride int) {
	var c [64]float32 // natural order
	dcOnly := true
	for k := range 64 {
		if b[k] != 0 {
			c[unzig[k]] = float32(b[k]) * s.inverse[k]
			dcOnly = dcOnly && k == 0
		}
	}
	if dcOnly { // a flat block: one value (most of a screenshot's)
		v := clamp(c[0] + 128)
		for y := range 8 {
			line := out[y*stride : y*stride+8]
			for x := range line {
				line[x] = v
			}
		}
		return
	}
	for u := range 8 { // columns
		idct8(&c, u, 8)
	}
	for y := range 8 { // rows
		idct8(&c, 8*y, 1)
		line := out[y*stride : y*stride+8]
		for x := range line {
			line[x] = clamp(c[8*y+x] + 128)
		}
	}
}

// idct8 transforms the eight values of c at i, i+d, … i+7d in place.
func idct8(c *[64]float32, i, d int) {
	// Even part.
	t10, t11 := c[i]+c[i+4*d], c[i]-c[i+4*d]
	t13 := c[i+2*d] + c[i+6*d]
	t12 := (c[i+2*d]-c[i+6*d])*math.Sqrt2 - t13
	t0, t3 := t10+t13, t10-t13
	t1, t2 := t11+t12, t11-t12
	// Odd part.
	z13, z10 := c[i+5*d]+c[i+3*d], c[i+5*d]-c[i+3*d]
	z11, z12 := c[i+d]+c[i+7*d], c[i+d]-c[i+7*d]
	t7 := z11 + z13
	o11 := (z11 - z13) * math.Sqrt2
	z5 := (z10 + z12) * 1.847759065 // 2·cos(π/8)
	o10 := z12*1.082392200 - z5     // 2·(cos(π/8) − cos(3π/8))
	o12 := z10*-2.613125930 + z5    // −2·(cos(π/8) + cos(3π/8))
	t6 := o12 - t7
	t5 := o11 - t6
	t4 := o10 + t5
	c[i], c[i+7*d] = t0+t7, t0-t7
	c[i+d], c[i+6*d] = t1+t6, t1-t6
	c[i+2*d], c[i+5*d] = t2+t5, t2-t5
	c[i+4*d], c[i+3*d] = t3+t4, t3-t4
}

// fromPixels transforms the 8×8 samples at in (stride) and quantizes them
// into b.
func fromPixels(in []uint8, stride int, s *scales, b *block) {
	var c [64]float32 // natural order
	for y := range 8 {
		line := in[y*stride : y*stride+8]
		for x, v := range line {
			c[8*y+x] = float32(v) - 128
		}
		fdct8(&c, 8*y, 1)
	}
	for u := range 8 {
		fdct8(&c, u, 8)
	}
	for k := range 64 {
		v := c[unzig[k]] * s.forward[k]
		// Rounded half away from zero, and kept to what 8-bit samples can
		// give, so that a DC difference fits the 11 bits baseline codes.
		r := int32(v + 0.5)
		if v < 0 {
			r = int32(v - 0.5)
		}
		b[k] = int16(max(-1023, min(1023, r)))
	}
}

// fdct8 transforms the eight values of c at i, i+d, … i+7d in place.
func fdct8(c *[64]float32, i, d int) {
	t0, t7 := c[i]+c[i+7*d], c[i]-c[i+7*d]
	t1, t6 := c[i+d]+c[i+6*d], c[i+d]-c[i+6*d]
	t2, t5 := c[i+2*d]+c[i+5*d], c[i+2*d]-c[i+5*d]
	t3, t4 := c[i+3*d]+c[i+4*d], c[i+3*d]-c[i+4*d]
	// Even part.
	t10, t13 := t0+t3, t0-t3
	t11, t12 := t1+t2, t1-t2
	c[i], c[i+4*d] = t10+t11, t10-t11
	z1 := (t12 + t13) * math.Sqrt2 / 2
	c[i+2*d], c[i+6*d] = t13+z1, t13-z1
	// Odd part.
	t10, t11, t12 = t4+t5, t5+t6, t6+t7
	z5 := (t10 - t12) * 0.382683433 // cos(3π/8)
	z2 := t10*0.541196100 + z5      // cos(π/8) − cos(3π/8)
	z4 := t12*1.306562965 + z5      // cos(π/8) + cos(3π/8)
	z3 := t11 * math.Sqrt2 / 2
	z11, z13 := t7+z3, t7-z3
	c[i+5*d], c[i+3*d] = z13+z2, z13-z2
	c[i+d], c[i+7*d] = z11+z4, z11-z4
}

func clamp(v float32) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}
