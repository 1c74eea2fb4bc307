package cdpclient

import (
	"context"
	"fmt"
	"unicode/utf8"

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

func buttonsMask(b input.MouseButton) int {
	switch b {
	case input.MouseButtonLeft:
		return 1
	case input.MouseButtonRight:
		return 2
	case input.MouseButtonMiddle:
		return 4
	}
	return 0
}

func parseButton(b MouseButton) (input.MouseButton, error) {
	switch b {
	case "", "left":
		return input.MouseButtonLeft, nil
	case "right":
		return input.MouseButtonRight, nil
	case "middle":
		return input.MouseButtonMiddle, nil
	}
	return "", argError("use left, right or middle", "button %q is not a mouse button", string(b))
}

func parseModifiers(names []string) (int, error) {
	mods := 0
	for _, n := range names {
		_, bit, err := lookupKey(n)
		if err != nil || bit == 0 {
			return 0, argError("modifiers are Alt, Control, Meta and Shift", "%q is not a modifier key", n)
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
			SetButtons(buttonsMask(button)).SetClickCount(i).SetModifiers(mods)
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

// mouseWheel scrolls by (dx, dy) CSS pixels with the pointer at (x, y).
func (p *Page) mouseWheel(ctx context.Context, x, y, dx, dy float64) error {
	if err := p.toFront(ctx); err != nil {
		return err
	}
	markDispatched(ctx)
	ev := input.NewDispatchMouseEventArgs("mouseWheel", x, y).SetDeltaX(dx).SetDeltaY(dy)
	if err := p.c.Input.DispatchMouseEvent(ctx, ev); err != nil {
		return fmt.Errorf("mouse wheel: %w", err)
	}
	return nil
}

// pressChord presses and releases a key chord: modifiers down, key down/up,
// modifiers up.
func (p *Page) pressChord(ctx context.Context, c chord) error {
	if err := p.toFront(ctx); err != nil {
		return err
	}
	mods := 0
	for _, m := range c.modKeys {
		mods |= modifierBit(m.Key)
		if err := p.keyEvent(ctx, "rawKeyDown", m, mods, nil); err != nil {
			return err
		}
	}
	if err := p.keyDownUp(ctx, c.key, c.mods, editCommands(c)); err != nil {
		return err
	}
	for i := len(c.modKeys) - 1; i >= 0; i-- {
		m := c.modKeys[i]
		mods &^= modifierBit(m.Key)
		if err := p.keyEvent(ctx, "keyUp", m, mods, nil); err != nil {
			return err
		}
	}
	return nil
}

// keyDownUp presses one key. Text is sent only when no command modifier is held.
func (p *Page) keyDownUp(ctx context.Context, k keyDef, mods int, commands []string) error {
	typ := "rawKeyDown"
	if k.Text != "" && mods&(modCtrl|modAlt|modMeta) == 0 {
		typ = "keyDown"
	}
	if err := p.keyEvent(ctx, typ, k, mods, commands); err != nil {
		return err
	}
	return p.keyEvent(ctx, "keyUp", k, mods, nil)
}

// keyEvent sends one key event, with the editing commands it should run.
func (p *Page) keyEvent(ctx context.Context, typ string, k keyDef, mods int, commands []string) error {
	markDispatched(ctx)
	ev := p.keyArgs(typ, k, mods)
	if len(commands) > 0 {
		ev.Commands = commands
	}
	if err := p.c.Input.DispatchKeyEvent(ctx, ev); err != nil {
		return fmt.Errorf("key %s %s: %w", typ, k.Key, err)
	}
	return nil
}

func (p *Page) keyArgs(typ string, k keyDef, mods int) *input.DispatchKeyEventArgs {
	ev := input.NewDispatchKeyEventArgs(typ).SetModifiers(mods).SetKey(k.Key)
	if k.Code != "" {
		ev.SetCode(k.Code)
	}
	if k.KeyCode != 0 {
		ev.SetWindowsVirtualKeyCode(k.KeyCode).SetNativeVirtualKeyCode(k.KeyCode)
	}
	if k.Location != 0 {
		ev.SetLocation(k.Location)
	}
	if typ == "keyDown" {
		ev.SetText(k.Text).SetUnmodifiedText(k.Text)
	}
	return ev
}

// typeText types s as key presses; characters a US keyboard cannot type are
// inserted as text input. If the page starts navigating away before the text is
// complete, typing stops: the rest would land in a page being replaced.
func (p *Page) typeText(ctx context.Context, s string) error {
	if err := p.toFront(ctx); err != nil {
		return err
	}
	start := p.navMark()
	typed, total := 0, utf8.RuneCountInString(s)
	for _, r := range s {
		if now := p.navMark(); now.loads != start.loads || now.docs != start.docs {
			return &Incomplete{Msg: fmt.Sprintf("the page navigated away after %d of %d characters were typed", typed, total),
				Hint: "the field's own script left the page; take a snapshot and check where you are"}
		}
		typed++
		switch r {
		case '\n', '\r':
			if err := p.keyDownUp(ctx, namedKeys["Enter"], 0, nil); err != nil {
				return err
			}
			continue
		case '\t':
			if err := p.keyDownUp(ctx, namedKeys["Tab"], 0, nil); err != nil {
				return err
			}
			continue
		}
		if k, ok := printableKeys[r]; ok {
			mods := 0
			if k.shift {
				mods = modShift
			}
			if err := p.keyDownUp(ctx, k.def, mods, nil); err != nil {
				return err
			}
			continue
		}
		markDispatched(ctx)
		if err := p.c.Input.InsertText(ctx, input.NewInsertTextArgs(string(r))); err != nil {
			return fmt.Errorf("insert text: %w", err)
		}
	}
	return nil
}
