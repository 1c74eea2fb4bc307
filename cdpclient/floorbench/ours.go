package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// ours is cdpmcp driven as mcpbench.mjs's adapter drives it (adapters/
// ours.mjs): the same server command and browser flags, the same tools, and
// targets found by role and name in the last snapshot. Measured beside the
// floor, a repetition of each in turn, the ratio of the two does not take in
// the machine's drift between two runs minutes apart.
type ours struct {
	c        *client.Client
	cmd      *exec.Cmd
	profile  string
	snapshot string
}

func startOurs(ctx context.Context, bin, chromium string) (*ours, error) {
	// It runs in a scratch directory, as the adapter runs it: a path
	// relative to this one is made whole first.
	bin, err := exec.LookPath(bin)
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	if err != nil {
		return nil, fmt.Errorf("-ours: %w", err)
	}
	profile, err := os.MkdirTemp("", "floorbench-ours-")
	if err != nil {
		return nil, err
	}
	o := &ours{profile: profile}
	args := []string{"serve", "--headless", "--browser-path", chromium, "--user-data-dir", profile}
	for _, f := range benchFlags {
		if f != "--headless" {
			args = append(args, "--browser-arg="+f)
		}
	}
	newCmd := func(_ context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
		o.cmd = exec.Command(command, args...)
		o.cmd.Dir = profile
		inGroup(o.cmd)
		return o.cmd, nil
	}
	if o.c, err = client.NewStdioMCPClientWithOptions(bin, nil, args, transport.WithCommandFunc(newCmd)); err != nil {
		_ = os.RemoveAll(profile)
		return nil, fmt.Errorf("-ours %s: %w", bin, err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "floorbench", Version: "1"}
	if _, err := o.c.Initialize(ctx, req); err != nil {
		o.close()
		return nil, fmt.Errorf("-ours %s: initialize: %w", bin, err)
	}
	return o, nil
}

func (o *ours) close() {
	_ = o.c.Close()
	if o.cmd != nil && o.cmd.Process != nil {
		killGroup(o.cmd)
	}
	_ = os.RemoveAll(o.profile)
}

// call runs a tool and returns its text; a result marked as an error is one.
func (o *ours) call(ctx context.Context, tool string, args map[string]any) (string, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	r, err := o.c.CallTool(ctx, req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	var text strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	if r.IsError {
		return "", fmt.Errorf("%s: %s", tool, text.String())
	}
	return text.String(), nil
}

func (o *ours) navigate(ctx context.Context, url string) error {
	_, err := o.call(ctx, "navigate", map[string]any{"url": url})
	return err
}

func (o *ours) snap(ctx context.Context) error {
	text, err := o.call(ctx, "snapshot", map[string]any{})
	o.snapshot = text
	return err
}

func (o *ours) fill(ctx context.Context, role, name, value string) error {
	ref, err := o.resolve(ctx, role, name)
	if err == nil {
		_, err = o.call(ctx, "fill", map[string]any{"ref": ref, "value": value})
	}
	return err
}

func (o *ours) click(ctx context.Context, role, name string) error {
	ref, err := o.resolve(ctx, role, name)
	if err == nil {
		_, err = o.call(ctx, "click", map[string]any{"ref": ref})
	}
	return err
}

func (o *ours) waitText(ctx context.Context, text string) error {
	_, err := o.call(ctx, "waitFor", map[string]any{"text": text, "timeoutMs": 10000})
	return err
}

func (o *ours) screenshot(ctx context.Context) error {
	_, err := o.call(ctx, "screenshot", map[string]any{})
	return err
}

// eval is the evaluate tool's value for expr, as text (a string comes as
// JSON: decoded, as the adapter does).
func (o *ours) eval(ctx context.Context, expr string) (string, error) {
	text, err := o.call(ctx, "evaluate", map[string]any{"expression": expr})
	var s string
	if err == nil && json.Unmarshal([]byte(text), &s) == nil {
		return s, nil
	}
	return text, err
}

// resolve finds a target's ref in the last snapshot, or in a new one (as
// the adapter does, within the step's time).
func (o *ours) resolve(ctx context.Context, role, name string) (int, error) {
	if ref, ok := findRef(o.snapshot, role, name); ok {
		return ref, nil
	}
	if err := o.snap(ctx); err != nil {
		return 0, err
	}
	if ref, ok := findRef(o.snapshot, role, name); ok {
		return ref, nil
	}
	return 0, fmt.Errorf("%s %q is not in the snapshot", role, name)
}

// elementLine is a snapshot's element line: 12[:]<button attrs>name</button>.
var (
	elementLine = regexp.MustCompile(`^\s*(\d+)\[:\]<([a-zA-Z][\w-]*)([^>]*)>(.*?)(?:</[a-zA-Z][\w-]*>)?\s*$`)
	attribute   = regexp.MustCompile(`([\w-]+)(?:=("[^"]*"|'[^']*'|[^\s>]+))?`)
)

// findRef is the first element of the role whose name is name, else whose
// name holds it, as adapters/ours.mjs's findTarget picks.
func findRef(snapshot, role, name string) (int, bool) {
	type el struct {
		ref         int
		role        string
		exact, part bool
	}
	var els []el
	for _, line := range strings.Split(snapshot, "\n") {
		m := elementLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		attrs := map[string]string{}
		for _, a := range attribute.FindAllStringSubmatch(m[3], -1) {
			attrs[strings.ToLower(a[1])] = strings.Trim(a[2], `"'`)
		}
		e := el{role: roleOf(strings.ToLower(m[2]), attrs)}
		_, _ = fmt.Sscan(m[1], &e.ref)
		for _, n := range []string{strings.TrimSpace(m[4]), attrs["aria-label"], attrs["placeholder"], attrs["title"], attrs["name"], attrs["value"]} {
			if n != "" {
				e.exact = e.exact || n == name
				e.part = e.part || strings.Contains(n, name)
			}
		}
		els = append(els, e)
	}
	for _, pick := range []func(el) bool{
		func(e el) bool { return e.role == role && e.exact },
		func(e el) bool { return e.role == role && e.part },
		func(e el) bool { return e.part },
	} {
		for _, e := range els {
			if pick(e) {
				return e.ref, true
			}
		}
	}
	return 0, false
}

// roleOf is the ARIA role the scenarios name an element line by.
func roleOf(tag string, attrs map[string]string) string {
	if r := attrs["role"]; r != "" {
		return r
	}
	typ := strings.ToLower(attrs["type"])
	switch tag {
	case "a":
		return "link"
	case "button":
		return "button"
	case "textarea":
		return "textbox"
	case "select":
		return "combobox"
	case "input":
		switch typ {
		case "button", "submit", "reset", "image":
			return "button"
		case "checkbox", "radio":
			return typ
		}
		return "textbox"
	}
	return tag
}
