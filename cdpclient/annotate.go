package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// annotate draws every visible ref's number on its box (seed 000's visual
// context) and returns a function that removes the drawing. Refs come from the
// page's latest snapshot; without one, a snapshot is taken first to hand them out.
func (p *Page) annotate(ctx context.Context) (func(), error) {
	if !p.refs.used() {
		if _, _, err := p.collect(ctx, Target{}); err != nil {
			return nil, err
		}
	}
	var all [][5]float64
	for _, key := range p.refs.frames() {
		var off point
		if key.frame != p.mainFrame {
			o, ok := p.frameOrigin(ctx, key)
			if !ok {
				continue // the frame is gone or not laid out
			}
			off = o
		}
		_ = p.withWorld(ctx, key, func(w *worldIn) error {
			r, err := w.eval(ctx, "__cdpmcp.boxes()", true)
			if err != nil {
				return err
			}
			var boxes [][5]float64
			if err := json.Unmarshal(r.Value, &boxes); err != nil {
				return err
			}
			for _, b := range boxes {
				b[1] += off.X
				b[2] += off.Y
				all = append(all, b)
			}
			return nil
		})
	}
	main := frameKey{frame: p.mainFrame}
	list, _ := json.Marshal(all)
	err := p.withWorld(ctx, main, func(w *worldIn) error {
		_, err := w.eval(ctx, fmt.Sprintf("__cdpmcp.annotate(%s)", list), true)
		return err
	})
	if err != nil {
		return nil, err
	}
	return func() {
		_ = p.withWorld(ctx, main, func(w *worldIn) error {
			_, err := w.eval(ctx, "__cdpmcp.unannotate()", true)
			return err
		})
	}, nil
}

// frameOrigin returns where a frame's viewport starts in the main frame's viewport.
func (p *Page) frameOrigin(ctx context.Context, key frameKey) (point, bool) {
	fb, err := p.frameBoxOf(ctx, key.frame)
	return fb.at, err == nil
}
