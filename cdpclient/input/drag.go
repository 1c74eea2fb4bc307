package input

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp"
	cdpinput "github.com/mafredri/cdp/protocol/input"
)

// Drag and drop as a person does it: press on the source, move in steps, let go
// on the target. Pages do drag and drop in one of two ways and one gesture
// serves both: pointer and mouse libraries (sortable lists, sliders, canvas)
// follow the moves, and HTML5 drag and drop starts when the first move leaves
// the source; Chromium then hands the drag to the browser, which cdpmcp
// intercepts (Input.setInterceptDrags) to deliver the rest as drag events with
// the data the page put in dataTransfer (Input.dispatchDragEvent).

const (
	// dragStartMove is how far the first move goes: past the few pixels a
	// browser or a library waits for before a press becomes a drag.
	dragStartMove = 8
	// dragStep is the distance between the moves of a drag, so a library that
	// reacts to each move (swapping neighbours one at a time) sees the way.
	dragStep = 16
	// dragInterceptWait bounds the wait for the browser to hand over an HTML5
	// drag the page started.
	dragInterceptWait = 2 * time.Second
)

// DragEnd is where a drag ends: an element, or a point of the viewport in CSS
// pixels when AtPoint is set.
type DragEnd struct {
	Target  cdpclient.Target
	X, Y    float64
	AtPoint bool
}

// Drag drags the source element to an element or a point and reports what
// moved: delta.value says where the dragged item was and is now (the list or
// column it sits in, its position), or that nothing moved.
func Drag(ctx context.Context, page *cdpclient.Page, from cdpclient.Target, to DragEnd) (*feedback.Feedback, error) {
	if !to.AtPoint && to.Target.IsZero() {
		return nil, cdpclient.ArgErrorf(`give the drop target, e.g. {"ref":"12","to":"15"} or a point "x,y"`, "no drop target given")
	}
	p := on(page)
	return p.d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{Target: from, NeedTarget: true, LateMs: cdpclient.LateFrame}), func(ctx context.Context, _ *cdp.Client) error {
		e := cdpclient.ActionElement(ctx)
		if _, err := e.Actionable(ctx, cdpclient.Need{Visible: true, Enabled: true}); err != nil {
			return err
		}
		item, before := dragItem(ctx, e)
		start, err := e.ClickablePoint(ctx)
		if err != nil {
			return err
		}
		// The drop target is found before the button goes down: a drag
		// to nothing does not start. Its box is read once the button is
		// down (dragPath).
		var te *cdpclient.Element
		if to.AtPoint {
			if err := p.inViewport(ctx, point{X: to.X, Y: to.Y}); err != nil {
				return err
			}
		} else if te, err = p.page.Resolve(ctx, to.Target); err != nil {
			return err
		}
		dest := func(ctx context.Context) (point, error) {
			if to.AtPoint {
				return point{X: to.X, Y: to.Y}, nil
			}
			box, err := te.ViewBox(ctx)
			return dropPoint(start, box), err
		}
		html5, err := p.dragPath(ctx, start, dest, e)
		if err != nil {
			return err
		}
		cdpclient.ReportValue(ctx, moved(ctx, item, before, html5))
		return nil
	})
}

// dragPath presses the left button at from, moves to the point dest gives (in
// steps) and lets go there. dest is asked once the button is down, so a target
// scrolled into view then is where the drop lands. watch is an element of the
// frame where an HTML5 drag would start. html5 reports that the page started
// one, which was then delivered as drag events.
func (p *tab) dragPath(ctx context.Context, from point, dest func(context.Context) (point, error), watch *cdpclient.Element) (html5 bool, err error) {
	if err := p.d.Input().ToFront(ctx); err != nil {
		return false, err
	}
	if err := p.pointerTo(ctx, from); err != nil {
		return false, err
	}
	if err := call(ctx, watch, "dragWatch", nil); err != nil {
		return false, err
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	intercepted, err := p.c.Input.DragIntercepted(sctx)
	if err != nil {
		return false, fmt.Errorf("drag events: %w", err)
	}
	defer intercepted.Close()
	if err := p.c.Input.SetInterceptDrags(ctx, cdpinput.NewSetInterceptDragsArgs(true)); err != nil {
		return false, fmt.Errorf("intercept drags: %w", err)
	}
	stopIntercept := func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
		defer cancel()
		_ = p.c.Input.SetInterceptDrags(ctx, cdpinput.NewSetInterceptDragsArgs(false))
	}
	if err := p.press(ctx, from, cdpinput.MouseButtonLeft, 1); err != nil {
		stopIntercept()
		return false, err
	}
	to, err := dest(ctx)
	if err != nil {
		stopIntercept()
		_ = p.release(context.WithoutCancel(ctx), from, cdpinput.MouseButtonLeft, 1)
		return false, err
	}
	first := towards(from, to, dragStartMove)
	err = p.pointerTo(ctx, first)
	var data *cdpinput.DragData
	if err == nil {
		var started bool
		if err = call(ctx, watch, "dragStarted", &started); err == nil && started {
			data = p.interceptedDrag(ctx, intercepted)
		}
	}
	stopIntercept()
	if err != nil {
		return false, err
	}
	if data == nil {
		return false, p.pointerDrag(ctx, first, to)
	}
	return true, p.html5Drag(ctx, first, to, *data)
}

// interceptedDrag waits (up to dragInterceptWait) for the drag the page
// started to reach the browser, and returns its data; nil if it never came.
func (p *tab) interceptedDrag(ctx context.Context, c cdpinput.DragInterceptedClient) *cdpinput.DragData {
	wctx, cancel := context.WithTimeout(ctx, dragInterceptWait)
	defer cancel()
	select {
	case <-c.Ready():
		ev, err := c.Recv()
		if err != nil {
			return nil
		}
		return &ev.Data
	case <-wctx.Done():
		return nil
	}
}

// pointerDrag moves with the left button held from a to b in steps, and lets go
// at b.
func (p *tab) pointerDrag(ctx context.Context, a, b point) error {
	n := steps(a, b)
	for i := 1; i <= n; i++ {
		if err := p.pointerTo(ctx, lerp(a, b, float64(i)/float64(n))); err != nil {
			return err
		}
	}
	// One more move on the spot: libraries that act a frame after a move
	// (or on the move after reaching a place) see the pointer rest there.
	if err := p.pointerTo(ctx, b); err != nil {
		return err
	}
	return p.release(ctx, b, cdpinput.MouseButtonLeft, 1)
}

// html5Drag delivers an intercepted HTML5 drag: it enters at a, passes over the
// way to b and drops at b. The page's drop and dragend handlers run then; the
// mouse button counts as released.
func (p *tab) html5Drag(ctx context.Context, a, b point, data cdpinput.DragData) error {
	send := func(typ string, pt point) error {
		cdpclient.Dispatched(ctx)
		if err := p.c.Input.DispatchDragEvent(ctx, cdpinput.NewDispatchDragEventArgs(typ, pt.X, pt.Y, data)); err != nil {
			return fmt.Errorf("drag %s: %w", typ, err)
		}
		return nil
	}
	if err := send("dragEnter", a); err != nil {
		return err
	}
	n := steps(a, b)
	for i := 1; i <= n; i++ {
		if err := send("dragOver", lerp(a, b, float64(i)/float64(n))); err != nil {
			return err
		}
	}
	err := send("drop", b)
	ptr := p.pointer()
	ptr.mu.Lock()
	ptr.buttons &^= 1
	ptr.at = b
	ptr.mu.Unlock()
	return err
}

// dropPoint is where a drag from a onto box lets go: past the box's middle
// in the direction of travel (a quarter of its size), as a person drags an
// item until it has passed the one whose place it takes; a list that swaps
// items as the pointer crosses their middles swaps this one too.
func dropPoint(a point, box cdpclient.Rect) point {
	c := point{X: box.X + box.W/2, Y: box.Y + box.H/2}
	dx, dy := c.X-a.X, c.Y-a.Y
	if math.Abs(dy) >= math.Abs(dx) {
		c.Y += math.Copysign(box.H/4, dy)
	} else {
		c.X += math.Copysign(box.W/4, dx)
	}
	return point{X: math.Round(c.X), Y: math.Round(c.Y)}
}

// towards is the point d pixels from a in the direction of b (straight down
// when b is a).
func towards(a, b point, d float64) point {
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l < 1 {
		return point{X: a.X, Y: a.Y + d}
	}
	if l < d {
		d = l
	}
	return point{X: a.X + dx/l*d, Y: a.Y + dy/l*d}
}

func lerp(a, b point, t float64) point {
	return point{X: math.Round(a.X + (b.X-a.X)*t), Y: math.Round(a.Y + (b.Y-a.Y)*t)}
}

// steps is how many moves a drag from a to b takes: one per dragStep pixels,
// at least 5 and at most 60.
func steps(a, b point) int {
	n := int(math.Hypot(b.X-a.X, b.Y-a.Y) / dragStep)
	return min(max(n, 5), 60)
}
