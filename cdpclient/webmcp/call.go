package webmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/mafredri/cdp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Called is what a call of a page's tool gave.
type Called struct {
	// Tool is the tool called.
	Tool Tool
	// Output is the tool's result as the page returned it (JSON), when it
	// completed.
	Output json.RawMessage
	// Feedback is the action's answer: what the page did while the tool
	// ran. Not OK when the tool threw or the page cancelled it: then Msg
	// says so.
	Feedback *feedback.Feedback
}

// Call calls the tool name that p's documents registered with args (a JSON
// object, checked against the tool's input schema first), as an action: its
// answer says what the page did while the tool ran, and the tool's output.
// allow, if not nil, sees the tool before it is called and may refuse it (the
// caller's read-only mode and origin rules): its error is returned as it is.
// A tool the page does not have is NOT_FOUND, naming those it has; arguments
// the schema refuses are an *cdpclient.ArgError.
func Call(ctx context.Context, p *cdpclient.Page, name string, args json.RawMessage, allow func(Tool) error) (*Called, error) {
	if strings.TrimSpace(name) == "" {
		return nil, cdpclient.ArgErrorf("pass the name of one of the tools pageTools lists", "name is empty")
	}
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage(`{}`)
	}
	d := p.Door()
	var (
		tools []Tool
		avail Availability
	)
	_, err := d.Run(ctx, cdpclient.ModeRead, func(ctx context.Context, c *cdp.Client) error {
		var err error
		if tools, err = announce(ctx, d); err == nil && len(tools) == 0 {
			avail, err = availability(ctx, d)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	tool, err := find(tools, name, avail)
	if err != nil {
		return nil, err
	}
	if allow != nil {
		if err := allow(tool); err != nil {
			return nil, err
		}
	}
	if err := checkArgs(tool, args); err != nil {
		return nil, err
	}
	out := &Called{Tool: tool}
	var failed string
	fb, err := d.Run(ctx, cdpclient.ModeAct(cdpclient.InputAction{}), func(ctx context.Context, _ *cdp.Client) error {
		r, err := invoke(ctx, d, tool, args)
		if err != nil {
			return err
		}
		switch r.Status {
		case "Completed":
			out.Output = r.Output
		case "Canceled":
			failed = "the page cancelled the call of " + tool.Name
		default:
			failed = "the page's tool " + tool.Name + " failed"
			if why := r.why(); why != "" {
				failed += ": " + why
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if failed != "" && fb.OK {
		// The tool ran and said it did not do its work: a failure of the
		// tool's own, with what the page did meanwhile.
		fb.OK, fb.Code, fb.Msg = false, int(cdpclient.CodeJSError), failed
		fb.Hint = "check the arguments against its inputSchema (pageTools), and the page (snapshot): it may have changed part of it before it failed"
	}
	out.Feedback = fb
	return out, nil
}

// find picks the tool name among tools: the main frame's when frames
// register the same name (tools come main frame first).
func find(tools []Tool, name string, avail Availability) (Tool, error) {
	var names []string
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	switch {
	case avail.Off != "":
		return Tool{}, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: fmt.Sprintf("the page has no tool %q: %s", name, avail.Off), Hint: avail.Hint}
	case len(names) == 0:
		return Tool{}, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: fmt.Sprintf("the page has no tool %q: it registered none", name),
			Hint: "use the page's own controls (snapshot, click, type); its tools may come once it has loaded more (pageTools)"}
	}
	return Tool{}, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: fmt.Sprintf("the page has no tool %q", name),
		Hint: "its tools: " + strings.Join(names, ", ")}
}

// checkArgs checks args against the tool's input schema, when it gave one
// that compiles; the browser checks nothing.
func checkArgs(tool Tool, args json.RawMessage) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return cdpclient.ArgErrorf(`pass arguments as a JSON object, e.g. {"query":"shoes"}`, "arguments are not JSON: %v", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return cdpclient.ArgErrorf(`pass arguments as a JSON object, e.g. {"query":"shoes"}`, "arguments are not an object")
	}
	if len(tool.InputSchema) == 0 {
		return nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.InputSchema))
	if err != nil {
		return nil
	}
	// The schema is the page's: a name of its own and no loader, so a $ref
	// in it reads nothing of this machine's (file:) or the network's.
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if c.AddResource(schemaURL, doc) != nil {
		return nil
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil // a schema the page wrote wrong: the page checks, if anyone
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if err := sch.Validate(inst); errors.As(err, &ve) {
		schema, _ := json.Marshal(json.RawMessage(tool.InputSchema))
		return cdpclient.ArgErrorf("its inputSchema: "+cut(string(schema), 400), "arguments for %s do not fit its schema: %s", tool.Name, leaves(ve))
	}
	return nil
}

// schemaURL names a page's schema inside the compiler.
const schemaURL = "urn:cdpmcp:page-tool-schema"

// leaves says what a validation error's leaves say ("at '/by': got
// string, want number"), without the library's first line, which names the
// schema by its URL.
func leaves(ve *jsonschema.ValidationError) string {
	var out []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, e.Error())
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(out, "; ")
}

// invoke calls the tool and waits for its answer: the page's, the frame
// leaving for another document (which cancels it without a word), or the
// end of ctx (the call's deadline, less a moment for the answer).
func invoke(ctx context.Context, d cdpclient.Door, tool Tool, args json.RawMessage) (*response, error) {
	s, err := d.Session(tool.session)
	if err != nil {
		return nil, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "the frame of tool " + tool.Name + " is gone", Hint: "list the page's tools again (pageTools)"}
	}
	st := stateOf(d)
	st.mu.Lock()
	navs := st.navigations[tool.Frame]
	st.mu.Unlock()
	params, _ := json.Marshal(map[string]any{"frameId": tool.Frame, "toolName": tool.Name, "input": args})
	raw, err := s.Call(ctx, "WebMCP.invokeTool", params)
	if err != nil {
		return nil, &cdpclient.Error{Code: cdpclient.CodeNotFound, Msg: "the page did not take the call of " + tool.Name + ": " + err.Error(),
			Hint: "the page may have removed the tool: list its tools again (pageTools)", Err: err}
	}
	cdpclient.Dispatched(ctx) // the page's code runs from here: the call happened
	var r struct {
		InvocationID string `json:"invocationId"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.InvocationID == "" {
		return nil, fmt.Errorf("WebMCP.invokeTool answered %s", raw)
	}
	wctx, cancel := answerDeadline(ctx)
	defer cancel()
	for {
		st.mu.Lock()
		ans, ok := st.answers[r.InvocationID]
		delete(st.answers, r.InvocationID)
		gone := st.navigations[tool.Frame] != navs
		changed := st.changed
		st.mu.Unlock()
		switch {
		case ok:
			return &ans, nil
		case gone:
			return nil, &cdpclient.Incomplete{Msg: "the page left for another document before " + tool.Name + " answered",
				Hint: "see where the page went (delta.url); the tool may have done its work"}
		}
		select {
		case <-changed:
		case <-wctx.Done():
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			_, _ = s.Call(ctx, "WebMCP.cancelInvocation", json.RawMessage(fmt.Sprintf(`{"invocationId":%q}`, r.InvocationID)))
			return nil, &cdpclient.Incomplete{Msg: tool.Name + " did not answer within the call's time, and was cancelled",
				Hint: "read the page (snapshot) before calling it again: it may have done part of its work"}
		}
	}
}

// answerDeadline is ctx with a deadline a little before its own, so that an
// answer is left time to say what the page did.
func answerDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	left := time.Until(dl)
	return context.WithTimeout(ctx, left-min(left/5, 3*time.Second))
}

// why is what a failed invocation said.
func (r *response) why() string {
	if r.Exception != nil && r.Exception.Description != "" {
		line, _, _ := strings.Cut(r.Exception.Description, "\n")
		return line
	}
	return r.ErrorText
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
