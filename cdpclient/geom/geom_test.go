package geom

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mafredri/cdp/protocol/dom"
)

// box is the quad of an axis-aligned box, corners clockwise from top-left.
func box(x, y, w, h float64) dom.Quad {
	return dom.Quad{x, y, x + w, y, x + w, y + h, x, y + h}
}

func TestArea(t *testing.T) {
	cases := []struct {
		name string
		q    dom.Quad
		want float64
	}{
		{"a box", box(10, 20, 30, 40), 1200},
		{"corners anticlockwise", dom.Quad{0, 0, 0, 10, 10, 10, 10, 0}, 100},
		{"a rotated square", dom.Quad{5, 0, 10, 5, 5, 10, 0, 5}, 50},
		{"a line", box(0, 0, 100, 0), 0},
		{"not four corners", dom.Quad{0, 0, 1, 1}, 0},
	}
	for _, c := range cases {
		if got := Area(c.q); got != c.want {
			t.Errorf("%s: Area = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCentreSkipsWhatCoversNoPixel(t *testing.T) {
	got, ok := Centre([]dom.Quad{box(0, 0, 50, 0.01), box(10, 10, 20, 40)})
	if !ok || got != (Point{X: 20, Y: 30}) {
		t.Errorf("Centre = %v, %v; want the second box's centre (20, 30)", got, ok)
	}
	if _, ok := Centre([]dom.Quad{box(0, 0, 0, 10), {1, 2}}); ok {
		t.Error("Centre found a point on quads with no area")
	}
	if _, ok := Centre(nil); ok {
		t.Error("Centre found a point without quads")
	}
}

func TestBounds(t *testing.T) {
	// A link broken over two lines: two boxes, and an empty one far away.
	quads := []dom.Quad{box(100, 10, 80, 20), box(0, 30, 40, 20), box(500, 500, 0, 0)}
	got, ok := Bounds(quads, Point{X: 5, Y: 7})
	want := Rect{X: 5, Y: 17, W: 180, H: 40}
	if !ok {
		t.Fatal("Bounds found no box")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Bounds (-want +got):\n%s", diff)
	}
	if _, ok := Bounds([]dom.Quad{box(3, 3, 0, 0)}, Point{}); ok {
		t.Error("Bounds found a box for an element with no area")
	}
}
