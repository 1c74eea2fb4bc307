package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/mark3labs/mcp-go/mcp"
)

const (
	waitTimeout  = 10 * time.Second
	maxSleep     = 30 * time.Second
	sleepMaxText = "30000"
)

func (s *Server) waitTools() []toolDef {
	return []toolDef{
		{
			tool: mcp.NewTool("waitFor",
				mcp.WithDescription("Wait until an element (selector or ref) or a text is visible, attached, hidden or detached. Event driven; returns as soon as it holds."),
				selectorArg(),
				mcp.WithString("text", mcp.Description("visible text to wait for")),
				refArg(),
				mcp.WithString("state", mcp.Enum("visible", "attached", "hidden", "detached"), mcp.Description("default visible")),
				timeoutArg("10000"), pageArg(), hints(true, false, true, true)),
			run: s.waitFor, readOnly: true, ownTimeout: true,
		},
		{
			tool: mcp.NewTool("waitForTimeout",
				mcp.WithDescription("Sleep for ms milliseconds (max "+sleepMaxText+"). Prefer waitFor."),
				mcp.WithInteger("ms", mcp.Required()),
				hints(true, false, true, false)),
			run: s.waitForTimeout, readOnly: true, ownTimeout: true,
		},
	}
}

func (s *Server) waitFor(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		targetArgs
		Page      string `json:"page"`
		Text      string `json:"text"`
		State     string `json:"state"`
		TimeoutMs int    `json:"timeoutMs"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	n := 0
	for _, v := range []string{string(a.Ref), a.Selector, a.Text} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return nil, badArg(`for example {"text":"Order placed"} or {"selector":"#results li"}`, "pass exactly one of selector, text or ref")
	}
	ctx, cancel, err := deadline(ctx, a.TimeoutMs, waitTimeout)
	if err != nil {
		return nil, err
	}
	defer cancel()
	spec := cdpclient.WaitSpec{Target: a.target(), Text: a.Text, State: cdpclient.WaitState(a.State)}
	return s.act(ctx, a.Page, "waitFor", a.target(), func(ctx context.Context, p *cdpclient.Page) error {
		return p.WaitFor(ctx, spec)
	})
}

func (s *Server) waitForTimeout(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Ms *int `json:"ms"`
	}
	if err := bind(req, &a); err != nil {
		return nil, err
	}
	if a.Ms == nil || *a.Ms < 0 {
		return nil, badArg(`for example {"ms":500}`, "argument %q must be a number of milliseconds ≥ 0", "ms")
	}
	d := time.Duration(*a.Ms) * time.Millisecond
	note := ""
	if d > maxSleep {
		d, note = maxSleep, " (capped at "+sleepMaxText+" ms)"
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return textResult(fmt.Sprintf("waited %d ms%s", d.Milliseconds(), note)), nil
}
