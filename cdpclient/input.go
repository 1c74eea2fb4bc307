package cdpclient

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/inputnames"
	"github.com/mafredri/cdp/protocol/input"
)

// MouseButton names a mouse button: left, right or middle.
type MouseButton string

// ClickOptions modify a click.
type ClickOptions struct {
	Button     MouseButton // default left
	ClickCount int         // default 1; 2 double-clicks
	Modifiers  []string    // held keys: Alt, Control, Meta, Shift
}

// ParseButton reads a mouse button's name (left when empty).
func ParseButton(b MouseButton) (input.MouseButton, error) {
	if button, ok := inputnames.Button(string(b)); ok {
		return button, nil
	}
	return "", ArgErrorf("use left, right or middle", "button %q is not a mouse button", string(b))
}

func parseModifiers(names []string) (int, error) {
	mods := 0
	for _, n := range names {
		bit, _, ok := inputnames.Modifier(n)
		if !ok {
			return 0, ArgErrorf("modifiers are Alt, Control, Meta and Shift", "%q is not a modifier key", n)
		}
		mods |= bit
	}
	return mods, nil
}

// mouseClick moves to (x, y) and clicks there count times.
func (p *Page) mouseClick(ctx context.Context, x, y float64, button input.MouseButton, count, mods int) error {
	if err := p.mouseMove(ctx, x, y, mods); err != nil {
		return err
	}
	markDispatched(ctx)
	for i := 1; i <= count; i++ {
		down := input.NewDispatchMouseEventArgs("mousePressed", x, y).SetButton(button).
			SetButtons(inputnames.ButtonMask(button)).SetClickCount(i).SetModifiers(mods)
		if err := p.c.Input.DispatchMouseEvent(ctx, down); err != nil {
			return fmt.Errorf("mouse down: %w", err)
		}
		up := input.NewDispatchMouseEventArgs("mouseReleased", x, y).SetButton(button).
			SetButtons(0).SetClickCount(i).SetModifiers(mods)
		if err := p.c.Input.DispatchMouseEvent(ctx, up); err != nil {
			return fmt.Errorf("mouse up: %w", err)
		}
	}
	return nil
}

func (p *Page) mouseMove(ctx context.Context, x, y float64, mods int) error {
	if err := p.toFront(ctx); err != nil {
		return err
	}
	mv := input.NewDispatchMouseEventArgs("mouseMoved", x, y).SetModifiers(mods)
	if err := p.c.Input.DispatchMouseEvent(ctx, mv); err != nil {
		return fmt.Errorf("mouse move: %w", err)
	}
	return nil
}
