package input

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	cdpinput "github.com/mafredri/cdp/protocol/input"
)

// Key events as a US keyboard sends them, and text typed as key presses.

// pressChord presses and releases a key chord: modifiers down, key down/up,
// modifiers up.
func (p *tab) pressChord(ctx context.Context, c chord) error {
	if err := p.d.Input().ToFront(ctx); err != nil {
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
func (p *tab) keyDownUp(ctx context.Context, k keyDef, mods int, commands []string) error {
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
func (p *tab) keyEvent(ctx context.Context, typ string, k keyDef, mods int, commands []string) error {
	cdpclient.Dispatched(ctx)
	ev := p.keyArgs(typ, k, mods)
	if len(commands) > 0 {
		ev.Commands = commands
	}
	if err := p.c.Input.DispatchKeyEvent(ctx, ev); err != nil {
		return fmt.Errorf("key %s %s: %w", typ, k.Key, err)
	}
	return nil
}

func (p *tab) keyArgs(typ string, k keyDef, mods int) *cdpinput.DispatchKeyEventArgs {
	ev := cdpinput.NewDispatchKeyEventArgs(typ).SetModifiers(mods).SetKey(k.Key)
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
func (p *tab) typeText(ctx context.Context, s string) error {
	if err := p.d.Input().ToFront(ctx); err != nil {
		return err
	}
	start := p.d.Input().NavMark()
	typed, total := 0, utf8.RuneCountInString(s)
	for _, r := range s {
		if p.d.Input().NavMark() != start {
			return &cdpclient.Incomplete{Msg: fmt.Sprintf("the page navigated away after %d of %d characters were typed", typed, total),
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
		cdpclient.Dispatched(ctx)
		if err := p.c.Input.InsertText(ctx, cdpinput.NewInsertTextArgs(string(r))); err != nil {
			return fmt.Errorf("insert text: %w", err)
		}
	}
	return nil
}
