package actions

import (
	"context"
	"fmt"

	"github.com/cdpmcp/cdpmcp/cdpclient/clipboard"
)

type clipboardArgs struct {
	Op   string  `json:"op" required:"true" enum:"read,write" desc:"read or write text"`
	Text *string `json:"text" desc:"to write"`
	Page string  `json:"page"`
}

// Clipboard reads or writes the browser's clipboard as text. Reading is
// allowed where the clipboard is the browser's own (a headless browser
// cdpmcp launched, serving one client); the system's clipboard, where the
// user's copied passwords are (a browser with a window, the user's own
// Chrome), and one that several sessions share need the server's
// --allow-clipboard-read.
var Clipboard = define("clipboard", "Read the clipboard's text, or write text to it (then paste with pressKey Control+V).",
	ClassAct, Hints{OpenWorld: true},
	func(ctx context.Context, env *Env, a clipboardArgs) (*Result, error) {
		p, err := env.Page(ctx, a.Page)
		if err != nil {
			return nil, err
		}
		switch a.Op {
		case "write":
			if a.Text == nil {
				return nil, argErr(`for example {"op":"write","text":"hello"}`, "argument %q is required to write", "text")
			}
			if err := clipboard.Write(ctx, p, *a.Text); err != nil {
				return nil, err
			}
			return &Result{Text: fmt.Sprintf("wrote %d characters to the clipboard", len([]rune(*a.Text)))}, nil
		case "read":
		default:
			return nil, argErr(`op is read or write, e.g. {"op":"read"}`, "op %q is not read or write", a.Op)
		}
		private := p.Context().Browser().Headless() && !env.SharedBrowser
		if !private && !env.ClipboardRead {
			why := "this browser's clipboard is the system's, where the user's copied passwords are"
			if p.Context().Browser().Headless() {
				why = "this browser's clipboard is shared by every session of the server"
			}
			return permission("clipboard", "reading the clipboard is off: "+why,
				"the server's owner can allow it with --allow-clipboard-read; writing is allowed"), nil
		}
		text, err := clipboard.Read(ctx, p)
		if err != nil {
			return nil, err
		}
		return &Result{Text: capText(text, "")}, nil
	}).inGroup("clipboard")
