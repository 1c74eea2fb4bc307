package actions

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/input"
)

type clickArgs struct {
	targetArgs
	Button     string   `json:"button" enum:"left,right,middle" desc:"default left"`
	ClickCount int      `json:"clickCount" desc:"2 for double-click"`
	Modifiers  []string `json:"modifiers" enum:"Alt,Control,Meta,Shift" desc:"keys held"`
	Page       string   `json:"page"`
}

// Click clicks an element with real mouse events.
var Click = define("click", "Click an element with real mouse events (fails if disabled or covered).",
	ClassAct, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a clickArgs) (*Result, error) {
		if err := a.require(); err != nil {
			return nil, err
		}
		opts := cdpclient.ClickOptions{Button: cdpclient.MouseButton(a.Button), ClickCount: a.ClickCount, Modifiers: a.Modifiers}
		return env.onPage(ctx, a.Page, "click", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return p.Click(ctx, a.target(), opts)
		})
	})

type typeArgs struct {
	targetArgs
	Text   *string `json:"text" required:"true" desc:"text to type"`
	Clear  bool    `json:"clear" desc:"replace what is there"`
	Submit bool    `json:"submit" desc:"then press Enter"`
	Page   string  `json:"page"`
}

// Type types text into a field with real key events.
var Type = define("type", "Type text with real key events (autocomplete, key handlers; fill is faster).",
	ClassAct, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a typeArgs) (*Result, error) {
		if err := a.require(); err != nil {
			return nil, err
		}
		if a.Text == nil {
			return nil, argErr(`for example {"ref":"12","text":"hello"}`, "argument %q is required", "text")
		}
		return env.onPage(ctx, a.Page, "type", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.Type(ctx, p, a.target(), *a.Text, a.Clear, a.Submit)
		})
	})

type fillArgs struct {
	targetArgs
	Value *string `json:"value" required:"true" desc:"new value"`
	Page  string  `json:"page"`
}

// Fill sets a field's value in one step.
var Fill = define("fill", "Set a field's value in one step (fires input and change events).",
	ClassAct, Hints{Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a fillArgs) (*Result, error) {
		if err := a.require(); err != nil {
			return nil, err
		}
		if a.Value == nil {
			return nil, argErr(`for example {"ref":"12","value":"hello"} ("" clears the field)`, "argument %q is required", "value")
		}
		return env.onPage(ctx, a.Page, "fill", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.Fill(ctx, p, a.target(), *a.Value)
		})
	})

type pressKeyArgs struct {
	Key string `json:"key" required:"true" desc:"e.g. Enter, Escape, Control+A"`
	targetArgs
	Page string `json:"page"`
}

// PressKey presses a key or chord.
var PressKey = define("pressKey", "Press a key or chord in the focused element or the target.",
	ClassAct, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a pressKeyArgs) (*Result, error) {
		if err := require("key", a.Key, `{"key":"Enter"}`); err != nil {
			return nil, err
		}
		return env.onPage(ctx, a.Page, "pressKey", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.PressKey(ctx, p, a.Key, a.target())
		})
	})

type hoverArgs struct {
	targetArgs
	Page string `json:"page"`
}

// Hover moves the mouse over an element.
var Hover = define("hover", "Move the mouse over an element (menus, tooltips).",
	ClassAct, Hints{Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a hoverArgs) (*Result, error) {
		if err := a.require(); err != nil {
			return nil, err
		}
		return env.onPage(ctx, a.Page, "hover", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return p.Hover(ctx, a.target())
		})
	})

type selectOptionArgs struct {
	targetArgs
	Values []string `json:"values" required:"true" desc:"values or labels"`
	Page   string   `json:"page"`
}

// SelectOption selects options of a <select>.
var SelectOption = define("selectOption", "Select options of a <select> by value or label.",
	ClassAct, Hints{Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a selectOptionArgs) (*Result, error) {
		if err := a.require(); err != nil {
			return nil, err
		}
		if len(a.Values) == 0 {
			return nil, argErr(`for example {"ref":"7","values":["Blue"]}`, "argument %q needs at least one value", "values")
		}
		return env.onPage(ctx, a.Page, "selectOption", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.SelectOption(ctx, p, a.target(), a.Values)
		})
	})

type scrollArgs struct {
	Direction string `json:"direction" required:"true" enum:"up,down,left,right,to_element" desc:"to_element needs ref"`
	Amount    int    `json:"amount" desc:"pixels, default most of a screen"`
	targetArgs
	Page string `json:"page"`
}

// Scroll scrolls the page or an area, or brings an element into view.
var Scroll = define("scroll", "Wheel-scroll the page (or the area under ref), or bring ref into view; says what is left above and below.",
	ClassNavigate, Hints{OpenWorld: true},
	func(ctx context.Context, env *Env, a scrollArgs) (*Result, error) {
		if err := require("direction", a.Direction, `{"direction":"down"}`); err != nil {
			return nil, err
		}
		return env.onPage(ctx, a.Page, "scroll", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.Scroll(ctx, p, a.Direction, a.Amount, a.target())
		})
	})

type uploadFileArgs struct {
	targetArgs
	Paths []string `json:"paths" required:"true" desc:"file paths"`
	Page  string   `json:"page"`
}

// UploadFile sets the files of a file input.
var UploadFile = define("uploadFile", "Set the files of an <input type=file> (paths on the server's machine).",
	ClassAct, Hints{Idempotent: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a uploadFileArgs) (*Result, error) {
		if err := a.require(); err != nil {
			return nil, err
		}
		if len(a.Paths) == 0 {
			return nil, argErr(`for example {"ref":"9","paths":["/tmp/report.pdf"]}`, "argument %q needs at least one path", "paths")
		}
		paths, err := env.uploadPaths(ctx, a.Paths)
		if err != nil {
			return nil, err
		}
		return env.onPage(ctx, a.Page, "uploadFile", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			return input.UploadFile(ctx, p, a.target(), paths)
		})
	})

type handleDialogArgs struct {
	Accept     *bool  `json:"accept" required:"true" desc:"true: OK, false: cancel"`
	PromptText string `json:"promptText" desc:"answer for a prompt (default: its default)"`
	Page       string `json:"page"`
}

// HandleDialog answers the open JavaScript dialog. It is offered in read-only
// mode too, so a page's own dialog cannot block an audit; there it only
// dismisses (and acknowledges alerts).
var HandleDialog = define("handleDialog", "Accept or dismiss the open alert/confirm/prompt dialog.",
	ClassNavigate, Hints{Destructive: true, OpenWorld: true},
	func(ctx context.Context, env *Env, a handleDialogArgs) (*Result, error) {
		if a.Accept == nil {
			return nil, argErr(`{"accept":true} to press OK, {"accept":false} to cancel`, "argument %q is required", "accept")
		}
		return env.onPage(ctx, a.Page, "handleDialog", func(ctx context.Context, p *cdpclient.Page) (*feedback.Feedback, error) {
			if d := p.Dialog(); env.ReadOnly && *a.Accept && d != nil && d.Type != "alert" {
				return permission("handleDialog", "read-only mode does not accept a "+d.Type+" dialog", "dismiss it with accept false").Feedback, nil
			}
			return p.HandleDialog(ctx, *a.Accept, a.PromptText)
		})
	}).inReadOnly("Dismiss the open dialog (read-only mode: accept only acknowledges alerts).", Hints{Idempotent: true, OpenWorld: true})
