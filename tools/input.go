package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

func (s *Server) inputTools() []toolDef {
	return []toolDef{
		{
			tool: mcp.NewTool("click",
				mcp.WithDescription("Click an element with real mouse events (scrolled into view; fails if disabled or covered)."),
				refArg(), selectorArg(),
				mcp.WithString("button", mcp.Enum("left", "right", "middle")),
				mcp.WithInteger("clickCount", mcp.Description("2 for double-click")),
				mcp.WithArray("modifiers", mcp.WithStringItems(mcp.Enum("Alt", "Control", "Meta", "Shift"))),
				pageArg(), hints(false, true, false, true)),
			run: s.click,
		},
		{
			tool: mcp.NewTool("type",
				mcp.WithDescription("Type text into a field with real key events (for autocomplete and key handlers; fill is faster)."),
				refArg(), selectorArg(),
				mcp.WithString("text", mcp.Required()),
				mcp.WithBoolean("clear", mcp.Description("replace the current content")),
				mcp.WithBoolean("submit", mcp.Description("press Enter afterwards")),
				pageArg(), hints(false, true, false, true)),
			run: s.typeText,
		},
		{
			tool: mcp.NewTool("fill",
				mcp.WithDescription("Set a field's value in one step (input and change events fire, frameworks see it)."),
				refArg(), selectorArg(),
				mcp.WithString("value", mcp.Required()),
				pageArg(), hints(false, false, true, true)),
			run: s.fill,
		},
		{
			tool: mcp.NewTool("pressKey",
				mcp.WithDescription("Press a key or chord (Enter, Tab, Escape, ArrowDown, Control+A) in the focused element or the target."),
				mcp.WithString("key", mcp.Required()),
				refArg(), selectorArg(), pageArg(), hints(false, true, false, true)),
			run: s.pressKey,
		},
		{
			tool: mcp.NewTool("hover",
				mcp.WithDescription("Move the mouse over an element (menus, tooltips)."),
				refArg(), selectorArg(), pageArg(), hints(false, false, true, true)),
			run: s.hover,
		},
		{
			tool: mcp.NewTool("selectOption",
				mcp.WithDescription("Select options of a <select> by value or visible label."),
				refArg(), selectorArg(),
				mcp.WithArray("values", mcp.Required(), mcp.WithStringItems()),
				pageArg(), hints(false, false, true, true)),
			run: s.selectOption,
		},
		{
			tool: mcp.NewTool("scroll",
				mcp.WithDescription("Scroll the page (or the area under ref) with the mouse wheel, or to_element to bring ref into view. Feedback says pixels left above and below."),
				mcp.WithString("direction", mcp.Required(), mcp.Enum("up", "down", "left", "right", "to_element")),
				mcp.WithInteger("amount", mcp.Description("pixels (default: most of a screen)")),
				refArg(), selectorArg(), pageArg(), hints(false, false, false, true)),
			run: s.scroll, readOnly: true,
		},
		{
			tool: mcp.NewTool("uploadFile",
				mcp.WithDescription("Set the files of an <input type=file> (paths on the server's machine)."),
				refArg(), selectorArg(),
				mcp.WithArray("paths", mcp.Required(), mcp.WithStringItems()),
				pageArg(), hints(false, false, true, true)),
			run: s.uploadFile,
		},
		s.handleDialogTool(),
	}
}

func (s *Server) click(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page       string   `json:"page"`
		Button     string   `json:"button"`
		ClickCount int      `json:"clickCount"`
		Modifiers  []string `json:"modifiers"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := a.require(); err != nil {
		return nil, err
	}
	opts := cdpclient.ClickOptions{Button: cdpclient.MouseButton(a.Button), ClickCount: a.ClickCount, Modifiers: a.Modifiers}
	return s.act(ctx, a.Page, "click", a.target(), func(ctx context.Context, p *cdpclient.Page) error {
		return p.Click(ctx, a.target(), opts)
	})
}

func (s *Server) typeText(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page   string  `json:"page"`
		Text   *string `json:"text"`
		Clear  bool    `json:"clear"`
		Submit bool    `json:"submit"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := a.require(); err != nil {
		return nil, err
	}
	if a.Text == nil {
		return nil, badArg(`for example {"ref":"12","text":"hello"}`, "argument %q is required", "text")
	}
	return s.act(ctx, a.Page, "type", a.target(), func(ctx context.Context, p *cdpclient.Page) error {
		return p.Type(ctx, a.target(), *a.Text, a.Clear, a.Submit)
	})
}

func (s *Server) fill(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page  string  `json:"page"`
		Value *string `json:"value"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := a.require(); err != nil {
		return nil, err
	}
	if a.Value == nil {
		return nil, badArg(`for example {"ref":"12","value":"hello"} ("" clears the field)`, "argument %q is required", "value")
	}
	return s.actValue(ctx, a.Page, "fill", a.target(), func(ctx context.Context, p *cdpclient.Page) (string, error) {
		got, err := p.Fill(ctx, a.target(), *a.Value)
		if got == *a.Value {
			got = "" // only worth saying when the field changed what was filled
		}
		return got, err
	})
}

func (s *Server) pressKey(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page string `json:"page"`
		Key  string `json:"key"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := require("key", a.Key, `{"key":"Enter"}`); err != nil {
		return nil, err
	}
	return s.act(ctx, a.Page, "pressKey", a.target(), func(ctx context.Context, p *cdpclient.Page) error {
		return p.PressKey(ctx, a.Key, a.target())
	})
}

func (s *Server) hover(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page string `json:"page"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := a.require(); err != nil {
		return nil, err
	}
	return s.act(ctx, a.Page, "hover", a.target(), func(ctx context.Context, p *cdpclient.Page) error {
		return p.Hover(ctx, a.target())
	})
}

func (s *Server) selectOption(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page   string   `json:"page"`
		Values []string `json:"values"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := a.require(); err != nil {
		return nil, err
	}
	if len(a.Values) == 0 {
		return nil, badArg(`for example {"ref":"7","values":["Blue"]}`, "argument %q needs at least one value", "values")
	}
	return s.actValue(ctx, a.Page, "selectOption", a.target(), func(ctx context.Context, p *cdpclient.Page) (string, error) {
		selected, err := p.SelectOption(ctx, a.target(), a.Values)
		return strings.Join(selected, ","), err
	})
}

func (s *Server) scroll(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page      string `json:"page"`
		Direction string `json:"direction"`
		Amount    int    `json:"amount"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := require("direction", a.Direction, `{"direction":"down"}`); err != nil {
		return nil, err
	}
	return s.actValue(ctx, a.Page, "scroll", a.target(), func(ctx context.Context, p *cdpclient.Page) (string, error) {
		st, err := p.Scroll(ctx, a.Direction, a.Amount, a.target())
		return fmt.Sprintf("y=%d above=%d below=%d", st.Y, st.Above, st.Below), err
	})
}

func (s *Server) uploadFile(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page  string   `json:"page"`
		Paths []string `json:"paths"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if err := a.require(); err != nil {
		return nil, err
	}
	if len(a.Paths) == 0 {
		return nil, badArg(`for example {"ref":"9","paths":["/tmp/report.pdf"]}`, "argument %q needs at least one path", "paths")
	}
	return s.act(ctx, a.Page, "uploadFile", a.target(), func(ctx context.Context, p *cdpclient.Page) error {
		return p.UploadFile(ctx, a.target(), a.Paths)
	})
}

// handleDialogTool is offered in read-only mode too, so a page's own dialog
// cannot block an audit; there it can only dismiss (and acknowledge alerts).
func (s *Server) handleDialogTool() toolDef {
	desc := "Accept or dismiss the open alert/confirm/prompt dialog."
	h := hints(false, true, false, true)
	if s.cfg.ReadOnly {
		desc = "Dismiss the open dialog (read-only mode: accept only acknowledges alerts)."
		h = hints(false, false, true, true)
	}
	return toolDef{
		tool: mcp.NewTool("handleDialog",
			mcp.WithDescription(desc),
			mcp.WithBoolean("accept", mcp.Required()),
			mcp.WithString("promptText", mcp.Description("answer for a prompt")),
			pageArg(), h),
		run: s.handleDialog, readOnly: true,
	}
}

func (s *Server) handleDialog(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Page       string `json:"page"`
		Accept     *bool  `json:"accept"`
		PromptText string `json:"promptText"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if a.Accept == nil {
		return nil, badArg(`{"accept":true} to press OK, {"accept":false} to cancel`, "argument %q is required", "accept")
	}
	return s.act(ctx, a.Page, "handleDialog", cdpclient.Target{}, func(ctx context.Context, p *cdpclient.Page) error {
		if d := p.Dialog(); s.cfg.ReadOnly && *a.Accept && d != nil && d.Type != "alert" {
			return &cdpclient.Error{Code: cdpclient.CodePermission, Msg: "read-only mode does not accept a " + d.Type + " dialog",
				Hint: "dismiss it with accept false"}
		}
		_, err := p.HandleDialog(ctx, *a.Accept, a.PromptText)
		return err
	})
}
