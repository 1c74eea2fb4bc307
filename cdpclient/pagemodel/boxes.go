package pagemodel

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
)

// Box is where an element with a ref is: a box in CSS pixels of the main
// frame's viewport.
type Box struct {
	Ref        int
	X, Y, W, H float64
}

// SnapshotBoxes is Snapshot, and where the elements its lines show (element
// lines and elements inside context lines) are in the viewport, measured
// by the same walk once each frame's lines are read: an annotated
// screenshot taken right after it draws them without measuring them again. A
// frame the core does not locate adds no boxes.
func SnapshotBoxes(ctx context.Context, p *cdpclient.Page, opts Options) (string, []Box, error) {
	return snapshotWith(ctx, p, opts, true)
}

// shownBoxes keeps the boxes of the refs lines show.
func shownBoxes(boxes []Box, lines []string) []Box {
	shown := snapshot.ElementRefs(lines)
	out := boxes[:0]
	for _, b := range boxes {
		if shown[b.Ref] {
			out = append(out, b)
		}
	}
	return out
}

// placeBoxes moves boxes measured in w's frame into the main frame's
// viewport; none if the frame is not located (gone, not laid out). Call it
// inside Door.Run.
func placeBoxes(ctx context.Context, w *cdpclient.World, boxes [][5]float64) [][5]float64 {
	if len(boxes) == 0 {
		return nil
	}
	at, err := w.Origin(ctx)
	if err != nil {
		return nil
	}
	for i := range boxes {
		boxes[i][1] += at.X
		boxes[i][2] += at.Y
	}
	return boxes
}
