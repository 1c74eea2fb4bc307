package cdpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// watchSet is the frames an action is observed in: the main frame and, when the
// target lives elsewhere, the target's frame.
type watchSet struct {
	keys []frameKey
}

// domChanges is what the page model saw change during an action (js/watch.js).
type domChanges struct {
	Text    [][2]string `json:"text"`
	Attrs   [][3]any    `json:"attrs"`
	Removed []string    `json:"removed"`
	Added   [][2]string `json:"added"`
	Invalid [][3]string `json:"invalid"` // ref, element, validation message
	More    int         `json:"more"`
	Last    int         `json:"last"`
}

// watchStart starts recording DOM changes in the frames the action touches. It is
// best effort: a page that cannot run scripts (a dialog is open) is not watched.
func (p *Page) watchStart(ctx context.Context, t Target) watchSet {
	var ws watchSet
	if p.usable() != nil {
		return ws
	}
	main := frameKey{frame: p.mainFrame}
	keys := []frameKey{main}
	targetIn := main
	ref := "null" // only ever a number: a ref is never code
	if t.Ref != "" {
		if n, k, err := p.refFrame(t.Ref); err == nil {
			ref = strconv.Itoa(n)
			if k != main {
				keys = append(keys, k)
				targetIn = k
			}
		}
	}
	sel := "null" // JSON: a string, never code
	if t.Ref == "" && t.Selector != "" {
		b, _ := json.Marshal(t.Selector)
		sel = string(b)
	}
	for _, k := range keys {
		args := "null, null"
		if k == targetIn {
			args = ref + ", " + sel
		}
		err := p.withWorld(ctx, k, func(w *worldIn) error {
			_, err := w.eval(ctx, "(() => { try { return __cdpmcp.watch("+args+"); } catch (e) { return __cdpmcp.watch(null, null); } })()", true)
			return err
		})
		if err == nil {
			ws.keys = append(ws.keys, k)
		}
	}
	return ws
}

// watchChanges waits (at most maxQuietMs) for the DOM to go quiet in each watched
// frame and collects what changed there, handing out refs to new elements.
func (p *Page) watchChanges(ctx context.Context, ws watchSet, maxQuietMs int) domChanges {
	var all domChanges
	for _, k := range ws.keys {
		if p.usable() != nil {
			break
		}
		_ = p.withWorld(ctx, k, func(w *worldIn) error {
			base := p.refs.base()
			r, err := w.eval(ctx, fmt.Sprintf("(async () => { await __cdpmcp.quiet(%d); return __cdpmcp.changes({base: %d}); })()", maxQuietMs, base), true)
			if err != nil {
				return err
			}
			var c domChanges
			if err := json.Unmarshal(r.Value, &c); err != nil {
				return err
			}
			p.refs.record(k, base, c.Last)
			all.Text = append(all.Text, c.Text...)
			all.Attrs = append(all.Attrs, c.Attrs...)
			all.Removed = append(all.Removed, c.Removed...)
			all.Added = append(all.Added, c.Added...)
			all.Invalid = append(all.Invalid, c.Invalid...)
			all.More += c.More
			return nil
		})
	}
	return all
}
