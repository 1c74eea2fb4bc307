package agentloop

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpmcp/cdpmcp/actions"
)

// function is one entry of the model's Functions list: a seed 000 §4 action (or
// one added under §7.1), the catalogue action it runs and how its arguments map
// onto the catalogue's.
type function struct {
	name, desc string
	params     []fparam
	// base is the catalogue action that runs; nil for what the loop does itself
	// (done, copy_to_clipboard).
	base *actions.Action
	// args maps the model's arguments onto base's. It returns the catalogue
	// arguments, or the loop's own answer for actions without a base.
	args func(s *stepCtx, a fargs) (map[string]any, error)
	// breaks says the page (or tab) is another one afterwards, so the rest of
	// the sequence must not run.
	breaks bool
	// human is offered only when the run can hand the tab to a person.
	human bool
}

// fparam is one argument of a function. Its type, choices and description come
// from the catalogue parameter named from, unless given here.
type fparam struct {
	name, typ, desc, from string
	required              bool
}

// indexParam is an element index from the Interactive elements list.
func indexParam(name string, required bool) fparam {
	return fparam{name: name, typ: "integer", required: required, desc: "element index"}
}

// functions is the model's action set, in the order the prompt lists it.
var functions = []*function{
	{name: "go_to_url", desc: "Navigate to a specified URL", base: actions.Navigate, breaks: true,
		params: []fparam{{name: "url", from: "url", required: true}},
		args: func(_ *stepCtx, a fargs) (map[string]any, error) {
			return map[string]any{"url": a.str("url")}, a.need("url")
		}},
	{name: "open_tab", desc: "Open a new browser tab (and switch to it)", base: actions.NewPage, breaks: true,
		params: []fparam{{name: "url", from: "url"}},
		args: func(_ *stepCtx, a fargs) (map[string]any, error) {
			return map[string]any{"url": a.str("url")}, nil
		}},
	{name: "switch_tab", desc: "Switch to a different browser tab", base: actions.SwitchPage, breaks: true,
		params: []fparam{{name: "index", typ: "integer", required: true, desc: "tab index from Available tabs"}},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			id, err := s.tab(a)
			return map[string]any{"page": id}, err
		}},
	{name: "close_tab", desc: "Close a browser tab", base: actions.ClosePage, breaks: true,
		params: []fparam{{name: "index", typ: "integer", required: true, desc: "tab index from Available tabs"}},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			id, err := s.tab(a)
			return map[string]any{"page": id}, err
		}},
	{name: "go_back", desc: "Go back to the previous page in this tab", base: actions.GoBack, breaks: true,
		args: func(*stepCtx, fargs) (map[string]any, error) { return map[string]any{}, nil }},
	{name: "click_element", desc: "Click on an element (real mouse events; fails if it is disabled or covered)", base: actions.Click,
		params: []fparam{indexParam("index", true)},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			ref, err := s.ref(a, "index", true)
			return map[string]any{"ref": ref}, err
		}},
	{name: "input_text", desc: "Type text into an input field (replaces what it holds)", base: actions.Type,
		params: []fparam{indexParam("index", true), {name: "text", typ: "string", required: true}},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			ref, err := s.ref(a, "index", true)
			if err == nil {
				err = a.need("text")
			}
			return map[string]any{"ref": ref, "text": a.str("text"), "clear": true}, err
		}},
	{name: "send_keys", desc: "Send keyboard commands to the focused element", base: actions.PressKey,
		params: []fparam{{name: "keys", typ: "string", required: true, desc: `e.g. "Enter", "Tab", "Escape", "Control+A"`}},
		args: func(_ *stepCtx, a fargs) (map[string]any, error) {
			return map[string]any{"key": a.str("keys")}, a.need("keys")
		}},
	{name: "select_option", desc: "Select an option of a dropdown (<select>) by its text or value", base: actions.SelectOption,
		params: []fparam{indexParam("index", true), {name: "option", typ: "string", required: true}},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			ref, err := s.ref(a, "index", true)
			if err == nil {
				err = a.need("option")
			}
			return map[string]any{"ref": ref, "values": []string{a.str("option")}}, err
		}},
	{name: "hover_element", desc: "Move the mouse over an element (menus, tooltips)", base: actions.Hover,
		params: []fparam{indexParam("index", true)},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			ref, err := s.ref(a, "index", true)
			return map[string]any{"ref": ref}, err
		}},
	{name: "drag_drop", desc: "Drag an element (or its handle) onto another element, or onto a point x,y of the screenshot (drag and drop, sortable lists)", base: actions.Drag,
		params: []fparam{indexParam("index", true), indexParam("target_index", false),
			{name: "x", typ: "integer", desc: "drop point, pixels from the left"}, {name: "y", typ: "integer", desc: "drop point, pixels from the top"}},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			ref, err := s.ref(a, "index", true)
			if err != nil {
				return nil, err
			}
			to, err := s.ref(a, "target_index", false)
			if err != nil {
				return nil, err
			}
			if to == "" {
				if err := a.need("x"); err != nil {
					return nil, &stepError{"give target_index, or x and y"}
				}
				if err := a.need("y"); err != nil {
					return nil, &stepError{"give target_index, or x and y"}
				}
				to = fmt.Sprintf("%d,%d", a.int("x"), a.int("y"))
			}
			return map[string]any{"ref": ref, "to": to}, nil
		}},
	{name: "upload_file", desc: "Set the files of a file input (paths on the server's machine)", base: actions.UploadFile,
		params: []fparam{indexParam("index", true), {name: "paths", typ: "array of strings", required: true}},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			ref, err := s.ref(a, "index", true)
			if err == nil {
				err = a.need("paths")
			}
			return map[string]any{"ref": ref, "paths": a.strs("paths")}, err
		}},
	{name: "scroll", desc: "Scroll the page (or the area under element_index), or bring element_index into view with to_element", base: actions.Scroll,
		params: []fparam{{name: "direction", from: "direction", required: true, desc: "to_element needs element_index"}, {name: "amount", typ: "integer", desc: "pixels"}, indexParam("element_index", false)},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			ref, err := s.ref(a, "element_index", a.str("direction") == "to_element")
			if err == nil {
				err = a.need("direction")
			}
			return map[string]any{"direction": a.str("direction"), "amount": a.int("amount"), "ref": ref}, err
		}},
	{name: "wait_for", desc: "Wait until a text shows on the page (for content that loads late)", base: actions.WaitFor,
		params: []fparam{{name: "text", typ: "string", required: true}, {name: "timeout_ms", typ: "integer", desc: "default 10000"}},
		args: func(_ *stepCtx, a fargs) (map[string]any, error) {
			return map[string]any{"text": a.str("text"), "timeoutMs": a.int("timeout_ms")}, a.need("text")
		}},
	{name: "handle_dialog", desc: "Accept or dismiss the open alert/confirm/prompt dialog", base: actions.HandleDialog,
		params: []fparam{{name: "accept", typ: "boolean", required: true}, {name: "prompt_text", typ: "string"}},
		args: func(_ *stepCtx, a fargs) (map[string]any, error) {
			return map[string]any{"accept": a.bool("accept"), "promptText": a.str("prompt_text")}, a.need("accept")
		}},
	{name: "extract_page_content", desc: "Extract the page's main content (the article) to read it whole; with include_links as Markdown with its links", base: actions.GetContent,
		params: []fparam{{name: "include_links", typ: "boolean"}},
		args: func(_ *stepCtx, a fargs) (map[string]any, error) {
			if a.bool("include_links") {
				return map[string]any{"format": "markdown"}, nil
			}
			return map[string]any{"format": "text"}, nil
		}},
	{name: "copy_to_clipboard", desc: "Copy text to clipboard",
		params: []fparam{{name: "text", typ: "string", required: true}},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			if err := a.need("text"); err != nil {
				return nil, err
			}
			s.run.clipboard = a.str("text")
			return nil, nil
		}},
	{name: "paste_from_clipboard", desc: "Paste text from clipboard into the focused field (or into element_index)", base: actions.Type,
		params: []fparam{indexParam("element_index", false)},
		args: func(s *stepCtx, a fargs) (map[string]any, error) {
			if s.run.clipboard == "" {
				return nil, &stepError{"the clipboard is empty: copy_to_clipboard first"}
			}
			ref, err := s.ref(a, "element_index", false)
			if ref == "" {
				return map[string]any{"selector": "*:focus", "text": s.run.clipboard}, err
			}
			return map[string]any{"ref": ref, "text": s.run.clipboard}, err
		}},
	{name: "ask_human", desc: "Hand this tab to a person (a CAPTCHA, a secret you were not given, a second factor) and wait until they hand it back", human: true, breaks: true,
		params: []fparam{{name: "reason", typ: "string", required: true, desc: "what the person should do"}},
		args:   func(_ *stepCtx, a fargs) (map[string]any, error) { return nil, a.need("reason") }},
	{name: "done", desc: "Signal task completion; result is what the user sees, so put everything they asked for in it",
		params: []fparam{{name: "result", typ: "string"}, {name: "success", typ: "boolean", desc: "false if the task could not be done"}},
		args:   func(*stepCtx, fargs) (map[string]any, error) { return nil, nil }},
}

// alias is another name models use for a function (seed 001's open_new_tab,
// browser-use's names), with the arguments the name implies.
type alias struct {
	to   string
	with map[string]json.RawMessage
}

var aliases = map[string]alias{
	"open_new_tab":           {to: "open_tab"},
	"extract_content":        {to: "extract_page_content"},
	"select_dropdown_option": {to: "select_option"},
	"hover":                  {to: "hover_element"},
	"scroll_down":            {to: "scroll", with: map[string]json.RawMessage{"direction": json.RawMessage(`"down"`)}},
	"scroll_up":              {to: "scroll", with: map[string]json.RawMessage{"direction": json.RawMessage(`"up"`)}},
}

// lookup finds the function the model named, and the arguments its name
// implies.
func lookup(name string) (*function, map[string]json.RawMessage) {
	name = strings.TrimSpace(name)
	al, ok := aliases[name]
	if ok {
		name = al.to
	}
	for _, f := range functions {
		if f.name == name {
			return f, al.with
		}
	}
	return nil, nil
}

// offered reports whether the function is in the Functions list: allowed in
// the mode, and ask_human only when a person can be reached.
func (f *function) offered(readOnly, askHuman bool) bool {
	return (f.base == nil || f.base.AllowedIn(readOnly)) && (!f.human || askHuman)
}

// Functions renders the action list of the system prompt for the given mode:
// one function a line with its arguments as JSON. askHuman adds ask_human.
func Functions(readOnly, askHuman bool) string {
	var b strings.Builder
	for _, f := range functions {
		if !f.offered(readOnly, askHuman) {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n  {", f.name, f.desc)
		for i, p := range f.params {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.render(f.base))
		}
		b.WriteString("}\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// render writes one argument as "name": type, an optional one as "name"?: type,
// with its description in parentheses.
func (p fparam) render(base *actions.Action) string {
	typ, desc := p.typ, p.desc
	if p.from != "" && base != nil {
		for _, cp := range base.Params() {
			if cp.Name != p.from {
				continue
			}
			if typ == "" {
				typ = cp.Type
				if len(cp.Enum) > 0 {
					typ = `"` + strings.Join(cp.Enum, `"|"`) + `"`
				}
			}
			if desc == "" {
				desc = cp.Desc
			}
		}
	}
	s := strconv.Quote(p.name)
	if !p.required {
		s += "?"
	}
	s += ": " + typ
	if desc != "" {
		s += " (" + desc + ")"
	}
	return s
}
