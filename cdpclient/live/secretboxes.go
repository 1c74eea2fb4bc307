package live

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
)

// Box is a rectangle in CSS pixels.
type Box struct{ X, Y, W, H float64 }

// SecretBoxes says where the tab shows fields whose value is secret (password
// fields, fields that were ones, one-time codes), in CSS pixels of its
// viewport, and the page's scroll offset when they were measured: a recorder
// that masks them in screencast frames moves them by the difference to each
// frame's own scroll offset. Fields in cross-site frames are not seen.
// It runs no page code.
func SecretBoxes(ctx context.Context, p *cdpclient.Page) (boxes []Box, scrollX, scrollY float64, err error) {
	return secretBoxes(ctx, p, false)
}

// RevealedSecretBoxes are the SecretBoxes of the fields that draw their
// value as text (a password field a "show password" toggle turned into a
// text field), with what they hold: a screenshot paints them over.
func RevealedSecretBoxes(ctx context.Context, p *cdpclient.Page) (boxes []Box, err error) {
	boxes, _, _, err = secretBoxes(ctx, p, true)
	return boxes, err
}

func secretBoxes(ctx context.Context, p *cdpclient.Page, revealedOnly bool) (boxes []Box, scrollX, scrollY float64, err error) {
	var out struct {
		Boxes  [][4]float64 `json:"boxes"`
		SX, SY float64
	}
	d := p.Door()
	_, err = d.Run(ctx, cdpclient.ModeBeside, func(ctx context.Context, _ *cdp.Client) error {
		return d.World(ctx, func(w *cdpclient.World) error {
			r, err := w.Eval(ctx, fmt.Sprintf("(%s)(%t)", jsFuncs.Func("secretBoxes"), revealedOnly), true)
			if err != nil {
				return err
			}
			return json.Unmarshal(r.Value, &out)
		})
	})
	if err != nil {
		return nil, 0, 0, err
	}
	for _, b := range out.Boxes {
		boxes = append(boxes, Box{X: b[0], Y: b[1], W: b[2], H: b[3]})
	}
	return boxes, out.SX, out.SY, nil
}
