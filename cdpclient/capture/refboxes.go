package capture

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/pagemodel"
)

// refBoxes returns the boxes of the elements with the refs shown, in every
// frame that holds refs: those in the viewport, or with whole those anywhere
// on the page. It only reads: the page model's world measures boxes, and
// nothing is added to the page. A frame that is gone or not laid out is
// passed over. Call it inside Door.Run.
func refBoxes(ctx context.Context, d cdpclient.Door, shown map[int]bool, whole bool) []pagemodel.Box {
	var all []pagemodel.Box
	d.Frames().RefWorlds(ctx, func(w *cdpclient.World) error {
		at, err := w.Origin(ctx)
		if err != nil {
			return err
		}
		r, err := w.Eval(ctx, fmt.Sprintf("__cdpmcp.boxes(%t)", whole), true)
		if err != nil {
			return err
		}
		var boxes [][5]float64
		if err := json.Unmarshal(r.Value, &boxes); err != nil {
			return err
		}
		for _, b := range boxes {
			if shown[int(b[0])] {
				all = append(all, pagemodel.Box{Ref: int(b[0]), X: b[1] + at.X, Y: b[2] + at.Y, W: b[3], H: b[4]})
			}
		}
		return nil
	})
	return all
}
