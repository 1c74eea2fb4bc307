package cdpclient

import (
	"context"
	"math"
	"time"

	"github.com/mafredri/cdp/protocol/dom"
)

// ScrollState says where a scroll container (or the page) is scrolled to and how
// many CSS pixels of content lie beyond the viewport in each direction.
type ScrollState struct {
	X     int `json:"x"`
	Y     int `json:"y"`
	Above int `json:"above"`
	Below int `json:"below"`
	Left  int `json:"left"`
	Right int `json:"right"`
}

// Scroll scrolls the page (or, with a target, the area under the target) by
// amount CSS pixels in direction up, down, left or right with mouse-wheel events,
// or brings the target into view with "to_element". amount 0 means most of a
// viewport. It returns the page's scroll state afterwards.
func (p *Page) Scroll(ctx context.Context, direction string, amount int, t Target) (ScrollState, error) {
	var st ScrollState
	switch direction {
	case "up", "down", "left", "right":
	case "to_element":
		if t.IsZero() {
			return st, argError("pass the ref or selector of the element to scroll to", "to_element needs a target")
		}
	default:
		return st, argError("use up, down, left, right or to_element", "direction %q is not a scroll direction", direction)
	}
	if amount < 0 {
		return st, argError("give a positive amount of pixels", "amount %d is negative", amount)
	}
	err := p.do(ctx, func(ctx context.Context) error {
		var e *Element
		if !t.IsZero() {
			var err error
			if e, err = p.Resolve(ctx, t); err != nil {
				return err
			}
		}
		if direction == "to_element" {
			if err := e.c.DOM.ScrollIntoViewIfNeeded(ctx, dom.NewScrollIntoViewIfNeededArgs().SetObjectID(e.object)); err != nil {
				if isGoneErr(err) {
					return e.gone()
				}
				return e.notVisible()
			}
			return p.readScroll(ctx, nil, &st)
		}
		vp, err := p.c.Page.GetLayoutMetrics(ctx)
		if err != nil {
			return err
		}
		w, h := float64(vp.CSSLayoutViewport.ClientWidth), float64(vp.CSSLayoutViewport.ClientHeight)
		at := point{X: w / 2, Y: h / 2}
		if e != nil {
			if at, _, err = e.visiblePoint(ctx); err != nil {
				return err
			}
		}
		dx, dy := 0.0, 0.0
		size := float64(amount)
		switch direction {
		case "up", "down":
			if size == 0 {
				size = h * 0.8
			}
			dy = size
			if direction == "up" {
				dy = -size
			}
		default:
			if size == 0 {
				size = w * 0.8
			}
			dx = size
			if direction == "left" {
				dx = -size
			}
		}
		before := p.docScroll(ctx, e)
		if err := p.mouseWheel(ctx, at.X, at.Y, dx, dy); err != nil {
			return err
		}
		p.waitScrolled(ctx, e, before, dx, dy)
		return p.readScroll(ctx, e, &st)
	})
	return st, err
}

// waitScrolled waits until a wheel scroll of (dx, dy) from before has been applied:
// the position reaches its target, or stops moving for 100 ms. Smooth scrolling
// animates, so this can take a few frames; it gives up after one second.
func (p *Page) waitScrolled(ctx context.Context, e *Element, before ScrollState, dx, dy float64) {
	clamp := func(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
	wantX := int(clamp(float64(before.X)+dx, float64(before.X-before.Left), float64(before.X+before.Right)))
	wantY := int(clamp(float64(before.Y)+dy, float64(before.Y-before.Above), float64(before.Y+before.Below)))
	wctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	last, lastChange := before, time.Now()
	_ = poll(wctx, 16*time.Millisecond, func() (bool, error) {
		cur := p.docScroll(wctx, e)
		if cur.X == wantX && cur.Y == wantY {
			return true, nil
		}
		if cur != last {
			last, lastChange = cur, time.Now()
		}
		return time.Since(lastChange) > 100*time.Millisecond && cur != before, nil
	})
}

func (p *Page) docScroll(ctx context.Context, e *Element) ScrollState {
	var st ScrollState
	_ = p.readScroll(ctx, e, &st)
	return st
}

func (p *Page) readScroll(ctx context.Context, e *Element, st *ScrollState) error {
	if e != nil {
		return e.call(ctx, "scrollState", st)
	}
	r, err := p.evalFunc(ctx, jsFunc("scrollState"), true)
	if err != nil {
		return err
	}
	return decodeValue(r, st)
}
