package cdpclient

import (
	"context"
	"fmt"
	"time"

	"github.com/mafredri/cdp/protocol/emulation"
	"github.com/mafredri/cdp/protocol/input"
)

// The remote input of a person driving a tab from elsewhere (the human
// handoff's live view): each event is passed on as the browser's own input,
// so the page sees trusted events (event.isTrusted), also in cross-site
// frames. Coordinates are CSS pixels of the tab's viewport.

// MouseEvent is one mouse event.
type MouseEvent struct {
	// Type is mouseMoved, mousePressed, mouseReleased or mouseWheel.
	Type string
	X, Y float64
	// Button is the button pressed or released (left, middle, right), or ""
	// for none; Buttons is the set held, as a mask (1 left, 2 right, 4 middle).
	Button  MouseButton
	Buttons int
	// ClickCount is 1 for a click, 2 for the second of a double click.
	ClickCount int
	// DeltaX and DeltaY scroll a mouseWheel event, in CSS pixels.
	DeltaX, DeltaY float64
	// Modifiers are the keys held: 1 Alt, 2 Control, 4 Meta, 8 Shift.
	Modifiers int
}

// DispatchMouse passes a mouse event to the tab.
func (p *Page) DispatchMouse(ctx context.Context, ev MouseEvent) error {
	switch ev.Type {
	case "mouseMoved", "mousePressed", "mouseReleased", "mouseWheel":
	default:
		return argError("use mouseMoved, mousePressed, mouseReleased or mouseWheel", "%q is not a mouse event", ev.Type)
	}
	args := input.NewDispatchMouseEventArgs(ev.Type, ev.X, ev.Y).SetModifiers(ev.Modifiers).SetButtons(ev.Buttons)
	if ev.Button != "" {
		b, err := parseButton(ev.Button)
		if err != nil {
			return err
		}
		args.SetButton(b)
	}
	if ev.ClickCount > 0 {
		args.SetClickCount(ev.ClickCount)
	}
	if ev.Type == "mouseWheel" {
		args.SetDeltaX(ev.DeltaX).SetDeltaY(ev.DeltaY)
	}
	return p.remote(ctx, "mouse "+ev.Type, func(ctx context.Context) error { return p.c.Input.DispatchMouseEvent(ctx, args) })
}

// KeyEvent is one key going down or up, as a DOM KeyboardEvent names it.
type KeyEvent struct {
	// Up is set for the key's release.
	Up bool
	// Key and Code are the DOM key and code ("a" and "KeyA"); KeyCode is the
	// Windows virtual key code (65).
	Key, Code string
	KeyCode   int
	// Text is what the key types ("" for none, "\r" for Enter); it is typed
	// only when no Control, Alt or Meta is held.
	Text      string
	Modifiers int
	// Location is 1 for a left, 2 for a right and 3 for a keypad key.
	Location   int
	AutoRepeat bool
}

// DispatchKey passes a key event to the tab's focused element.
func (p *Page) DispatchKey(ctx context.Context, ev KeyEvent) error {
	typ := "rawKeyDown"
	switch {
	case ev.Up:
		typ = "keyUp"
	case ev.Text != "" && ev.Modifiers&(modCtrl|modAlt|modMeta) == 0:
		typ = "keyDown"
	}
	args := input.NewDispatchKeyEventArgs(typ).SetModifiers(ev.Modifiers).SetKey(ev.Key).SetAutoRepeat(ev.AutoRepeat)
	if ev.Code != "" {
		args.SetCode(ev.Code)
	}
	if ev.KeyCode > 0 {
		args.SetWindowsVirtualKeyCode(ev.KeyCode).SetNativeVirtualKeyCode(ev.KeyCode)
	}
	if ev.Location > 0 {
		args.SetLocation(ev.Location).SetIsKeypad(ev.Location == 3)
	}
	if typ == "keyDown" {
		args.SetText(ev.Text).SetUnmodifiedText(ev.Text)
	}
	return p.remote(ctx, "key "+typ, func(ctx context.Context) error { return p.c.Input.DispatchKeyEvent(ctx, args) })
}

// InsertText types text into the tab's focused element as an input method
// would: one input event, no key events (composed text, a paste).
func (p *Page) InsertText(ctx context.Context, text string) error {
	return p.remote(ctx, "insert text", func(ctx context.Context) error {
		return p.c.Input.InsertText(ctx, input.NewInsertTextArgs(text))
	})
}

// TouchPoint is one finger on the screen; ID tells fingers apart across events.
type TouchPoint struct {
	X, Y float64
	ID   int
}

// DispatchTouch passes a touch event (touchStart, touchMove, touchEnd or
// touchCancel) with the fingers on the screen to the tab. A touchEnd lists
// the fingers that remain.
func (p *Page) DispatchTouch(ctx context.Context, typ string, points []TouchPoint, modifiers int) error {
	switch typ {
	case "touchStart", "touchMove", "touchEnd", "touchCancel":
	default:
		return argError("use touchStart, touchMove, touchEnd or touchCancel", "%q is not a touch event", typ)
	}
	tps := make([]input.TouchPoint, len(points))
	for i, pt := range points {
		id := float64(pt.ID)
		tps[i] = input.TouchPoint{X: pt.X, Y: pt.Y, ID: &id}
	}
	args := input.NewDispatchTouchEventArgs(typ, tps).SetModifiers(modifiers)
	return p.remote(ctx, "touch "+typ, func(ctx context.Context) error { return p.c.Input.DispatchTouchEvent(ctx, args) })
}

// SetViewport makes the tab's viewport width × height CSS pixels drawn at
// scale device pixels each (the screen of whoever watches it). mobile lays
// pages out as a phone does (the page's meta viewport) and turns on touch
// events. ResetViewport undoes it.
func (p *Page) SetViewport(ctx context.Context, width, height int, scale float64, mobile bool) error {
	return p.remote(ctx, "set the viewport", func(ctx context.Context) error {
		p.mu.Lock()
		known := p.ownSize != [2]float64{}
		p.mu.Unlock()
		if !known { // the tab's own size, which ResetViewport waits for
			w, h, err := p.viewportSize(ctx)
			if err != nil {
				return err
			}
			p.mu.Lock()
			p.ownSize = [2]float64{w, h}
			p.mu.Unlock()
		}
		args := emulation.NewSetDeviceMetricsOverrideArgs(width, height, scale, mobile)
		if err := p.c.Emulation.SetDeviceMetricsOverride(ctx, args); err != nil {
			return err
		}
		return p.c.Emulation.SetTouchEmulationEnabled(ctx, emulation.NewSetTouchEmulationEnabledArgs(mobile).SetMaxTouchPoints(5))
	})
}

// ResetViewport gives the tab back the viewport of its window.
func (p *Page) ResetViewport(ctx context.Context) error {
	return p.remote(ctx, "reset the viewport", func(ctx context.Context) error {
		if err := p.c.Emulation.ClearDeviceMetricsOverride(ctx); err != nil {
			return err
		}
		if err := p.c.Emulation.SetTouchEmulationEnabled(ctx, emulation.NewSetTouchEmulationEnabledArgs(false)); err != nil {
			return err
		}
		// The renderer takes its own size back a frame or two later: wait
		// for it (briefly), so that what reads the page next sees that size.
		p.mu.Lock()
		own := p.ownSize
		p.ownSize = [2]float64{}
		p.mu.Unlock()
		for deadline := time.Now().Add(time.Second); own != [2]float64{} && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if w, h, err := p.viewportSize(ctx); err != nil || [2]float64{w, h} == own {
				break
			}
		}
		return nil
	})
}

// remote runs one call of remote input: on a usable tab, brought to the front
// (keys go to the focused tab), ended early when a dialog opens or the tab
// closes or crashes.
func (p *Page) remote(ctx context.Context, what string, call func(context.Context) error) error {
	if err := p.usable(); err != nil {
		return err
	}
	ctx, cancel := p.guard(ctx)
	defer cancel()
	if err := p.toFront(ctx); err != nil {
		return cause(ctx, err)
	}
	if err := call(ctx); err != nil {
		return cause(ctx, fmt.Errorf("%s: %w", what, err))
	}
	return nil
}
