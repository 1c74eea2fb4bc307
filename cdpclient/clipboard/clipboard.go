// Package clipboard reads and writes the browser's clipboard as text, through
// a page's document and from cdpmcp's isolated world: no page code runs. The
// permission the Clipboard API asks of the page's origin is granted for the
// one operation and put back as it was after, so the page itself gets no
// lasting access to the clipboard.
//
// The clipboard is the browser's, not a tab's or a context's: one every
// session of the browser shares. A headless browser's is its own, in memory;
// a browser with a window (one cdpmcp launched on a display, or the user's
// own Chrome it attached to) uses the system's, where the user's copied
// passwords are: callers decide whether reading it is allowed
// (tools: --allow-clipboard-read).
//
// It is a feature on the core: it imports cdpclient's exported API, the door
// (Door.Run, CallInWorld) and cdpclient/permissions; cdpclient never imports
// it.
package clipboard

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/jsfunc"
	"github.com/cdpmcp/cdpmcp/cdpclient/permissions"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/emulation"
)

//go:embed js/*.js
var jsFiles embed.FS

var jsFuncs = jsfunc.Load(jsFiles, "js")

// MaxText is the most text Write puts on the clipboard, in bytes.
const MaxText = 1 << 20

// Read returns the text on the clipboard, read through p's document.
func Read(ctx context.Context, p *cdpclient.Page) (string, error) {
	var out string
	err := withClipboard(ctx, p, func(ctx context.Context, d cdpclient.Door) error {
		r, err := op(ctx, d, "read", "")
		out = r
		return err
	})
	return out, err
}

// Write puts text on the clipboard, through p's document.
func Write(ctx context.Context, p *cdpclient.Page, text string) error {
	if len(text) > MaxText {
		return cdpclient.ArgErrorf(fmt.Sprintf("write at most %d bytes", MaxText), "the text is %d bytes", len(text))
	}
	return withClipboard(ctx, p, func(ctx context.Context, d cdpclient.Door) error {
		_, err := op(ctx, d, "write", text)
		return err
	})
}

// states is what clipboardStates answers.
type states struct {
	Origin      string `json:"origin"`
	Secure      bool   `json:"secure"`
	Read, Write string
}

// withClipboard runs fn on p with the clipboard permissions granted to the
// document's origin, and puts them back as they were after.
func withClipboard(ctx context.Context, p *cdpclient.Page, fn func(ctx context.Context, d cdpclient.Door) error) error {
	d := p.Door()
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		var st states
		if err := call(ctx, d, &st, jsFuncs.Func("clipboardStates")); err != nil {
			return err
		}
		if !st.Secure || !strings.HasPrefix(st.Origin, "http") {
			return &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "the clipboard is reached through a page on https or on this machine (localhost), and this tab shows " + p.URL(),
				Hint: "navigate to such a page first (any page of the site you work on)"}
		}
		bc := p.Context()
		if err := permissions.Set(ctx, bc, "clipboardReadWrite", "granted", st.Origin); err != nil {
			return err
		}
		if err := permissions.Set(ctx, bc, "clipboardSanitizedWrite", "granted", st.Origin); err != nil {
			return err
		}
		defer func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
			defer cancel()
			for typ, state := range map[string]string{"clipboardReadWrite": st.Read, "clipboardSanitizedWrite": st.Write} {
				if err := permissions.Set(rctx, bc, typ, state, st.Origin); err != nil {
					slog.Debug("put the clipboard permission back", "type", typ, "err", err)
				}
			}
		}()
		err := fn(ctx, d)
		if err != nil && strings.Contains(err.Error(), "not focused") {
			// A tab behind another window: the document counts as focused
			// for the one operation.
			_ = c.Emulation.SetFocusEmulationEnabled(ctx, emulation.NewSetFocusEmulationEnabledArgs(true))
			err = fn(ctx, d)
			_ = c.Emulation.SetFocusEmulationEnabled(ctx, emulation.NewSetFocusEmulationEnabledArgs(false))
		}
		return err
	})
	return err
}

// op runs clipboardOp in cdpmcp's world.
func op(ctx context.Context, d cdpclient.Door, what, text string) (string, error) {
	var r struct {
		Text  string `json:"text"`
		Error string `json:"error"`
	}
	if err := call(ctx, d, &r, jsFuncs.Func("clipboardOp"), what, text); err != nil {
		return "", err
	}
	if r.Error != "" {
		return "", &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "the browser refused to " + what + " the clipboard: " + r.Error,
			Hint: "bring the tab to the front (switchPage) and call again"}
	}
	return r.Text, nil
}

// call calls a page function in cdpmcp's world and decodes its value.
func call(ctx context.Context, d cdpclient.Door, out any, fn string, args ...any) error {
	r, err := d.CallInWorld(ctx, fn, args...)
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("clipboard: %s", cdpclient.ExceptionText(r.ExceptionDetails))
	}
	if len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}
