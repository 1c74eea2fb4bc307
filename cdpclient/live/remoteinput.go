package live

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/input"
)

// The remote input of a person driving a tab from elsewhere (the human
// handoff's live view): each event is passed on as the browser's own input,
// so the page sees trusted events (event.isTrusted), also in cross-site
// frames. Coordinates are CSS pixels of the tab's viewport.

// The protocol's modifier bits (Input.dispatchKeyEvent): a key held with
// one of these types nothing.
const (
	modAlt  = 1
	modCtrl = 2
	modMeta = 4
)

// MouseEvent is one mouse event.
type MouseEvent struct {
	// Type is mouseMoved, mousePressed, mouseReleased or mouseWheel.
	Type string
	X, Y float64
	// Button is the button pressed or released (left, middle, right), or ""
	// for none; Buttons is the set held, as a mask (1 left, 2 right, 4 middle).
	Button  cdpclient.MouseButton
	Buttons int
	// ClickCount is 1 for a click, 2 for the second of a double click.
	ClickCount int
	// DeltaX and DeltaY scroll a mouseWheel event, in CSS pixels.
	DeltaX, DeltaY float64
	// Modifiers are the keys held: 1 Alt, 2 Control, 4 Meta, 8 Shift.
	Modifiers int
}

// DispatchMouse passes a mouse event to the tab.
func DispatchMouse(ctx context.Context, p *cdpclient.Page, ev MouseEvent) error {
	switch ev.Type {
	case "mouseMoved", "mousePressed", "mouseReleased", "mouseWheel":
	default:
		return cdpclient.ArgErrorf("use mouseMoved, mousePressed, mouseReleased or mouseWheel", "%q is not a mouse event", ev.Type)
	}
	args := input.NewDispatchMouseEventArgs(ev.Type, ev.X, ev.Y).SetModifiers(ev.Modifiers).SetButtons(ev.Buttons)
	switch ev.Button {
	case "":
	case "left", "right", "middle": // the protocol's names
		args.SetButton(input.MouseButton(ev.Button))
	default:
		return cdpclient.ArgErrorf("use left, right or middle", "button %q is not a mouse button", string(ev.Button))
	}
	if ev.ClickCount > 0 {
		args.SetClickCount(ev.ClickCount)
	}
	if ev.Type == "mouseWheel" {
		args.SetDeltaX(ev.DeltaX).SetDeltaY(ev.DeltaY)
	}
	return remote(ctx, p, "mouse "+ev.Type, func(ctx context.Context, c *cdp.Client) error { return c.Input.DispatchMouseEvent(ctx, args) })
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
func DispatchKey(ctx context.Context, p *cdpclient.Page, ev KeyEvent) error {
	typ := "rawKeyDown"
	switch {
	case ev.Up:
		typ = "keyUp"
	case ev.Text != "" && ev.Modifiers&(modAlt|modCtrl|modMeta) == 0:
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
	return remote(ctx, p, "key "+typ, func(ctx context.Context, c *cdp.Client) error { return c.Input.DispatchKeyEvent(ctx, args) })
}

// InsertText types text into the tab's focused element as an input method
// would: one input event, no key events (composed text, a paste).
func InsertText(ctx context.Context, p *cdpclient.Page, text string) error {
	return remote(ctx, p, "insert text", func(ctx context.Context, c *cdp.Client) error {
		return c.Input.InsertText(ctx, input.NewInsertTextArgs(text))
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
func DispatchTouch(ctx context.Context, p *cdpclient.Page, typ string, points []TouchPoint, modifiers int) error {
	switch typ {
	case "touchStart", "touchMove", "touchEnd", "touchCancel":
	default:
		return cdpclient.ArgErrorf("use touchStart, touchMove, touchEnd or touchCancel", "%q is not a touch event", typ)
	}
	tps := make([]input.TouchPoint, len(points))
	for i, pt := range points {
		id := float64(pt.ID)
		tps[i] = input.TouchPoint{X: pt.X, Y: pt.Y, ID: &id}
	}
	args := input.NewDispatchTouchEventArgs(typ, tps).SetModifiers(modifiers)
	return remote(ctx, p, "touch "+typ, func(ctx context.Context, c *cdp.Client) error { return c.Input.DispatchTouchEvent(ctx, args) })
}

// remote runs one call of a person's remote input (what names it in an
// error) under cdpclient.ModeRemote: on a usable tab, brought to the front
// (keys go to the focused tab), ended early when a dialog opens or the tab
// closes or crashes. c is the page session's client.
func remote(ctx context.Context, p *cdpclient.Page, what string, call func(ctx context.Context, c *cdp.Client) error) error {
	_, err := p.Door().Run(ctx, cdpclient.ModeRemote, func(ctx context.Context, c *cdp.Client) error {
		if err := call(ctx, c); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
	return err
}
