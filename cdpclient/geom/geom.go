// Package geom is where elements are on screen: points and boxes in CSS
// pixels of the main frame's viewport, made from the quads CDP measures an
// element's boxes in (DOM.getContentQuads, DOM.getBoxModel: four corners, x
// and y each). It has no browser of its own: the core measures, this adds up.
package geom

import (
	"math"

	"github.com/mafredri/cdp/protocol/dom"
)

// Point is a position in CSS pixels of the main frame's viewport.
type Point struct{ X, Y float64 }

// Rect is a box in CSS pixels of the main frame's viewport.
type Rect struct{ X, Y, W, H float64 }

// Area is the area of a quad, whichever way its corners turn; 0 for a quad
// that is not four corners.
func Area(q dom.Quad) float64 {
	if len(q) != 8 {
		return 0
	}
	a := 0.0
	for i := 0; i < 8; i += 2 {
		j := (i + 2) % 8
		a += q[i]*q[j+1] - q[j]*q[i+1]
	}
	return math.Abs(a) / 2
}

// shown reports whether a quad covers at least a pixel: what a person can
// see and click of a box.
func shown(q dom.Quad) bool { return Area(q) >= 1 }

// Centre is the centre of the first quad that covers at least a pixel; false
// when none does (the element has no box on screen).
func Centre(quads []dom.Quad) (Point, bool) {
	for _, q := range quads {
		if !shown(q) {
			continue
		}
		var c Point
		for i := 0; i < 8; i += 2 {
			c.X += q[i] / 4
			c.Y += q[i+1] / 4
		}
		return c, true
	}
	return Point{}, false
}

// Bounds is the box around the quads that cover at least a pixel, moved by
// off (where the quads' frame sits in the main frame's viewport); false when
// none does.
func Bounds(quads []dom.Quad, off Point) (Rect, bool) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range quads {
		if !shown(q) {
			continue
		}
		for i := 0; i < 8; i += 2 {
			minX, maxX = math.Min(minX, q[i]), math.Max(maxX, q[i])
			minY, maxY = math.Min(minY, q[i+1]), math.Max(maxY, q[i+1])
		}
	}
	if math.IsInf(minX, 1) {
		return Rect{}, false
	}
	return Rect{X: minX + off.X, Y: minY + off.Y, W: maxX - minX, H: maxY - minY}, true
}
