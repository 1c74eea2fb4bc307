package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// call runs one tool through an in-process MCP client and prints the result
// on stdout: text as is, images as a note (or to --out). A tool error prints
// nothing there: its reason is the error, on stderr, and the exit is non-zero.
func call(ctx context.Context, cfg config, tool, rawArgs, out string) error {
	if !slices.Contains(tools.ToolNames(), tool) {
		return unknownTool(tool)
	}
	args := map[string]any{}
	if rawArgs != "" {
		if err := json.Unmarshal([]byte(rawArgs), &args); err != nil {
			return fmt.Errorf("arguments must be a JSON object, e.g. '{\"url\":\"https://example.com\"}': %w", err)
		}
	}
	endOrphans()
	st, err := build(cfg)
	if err != nil {
		return err
	}
	defer st.close()
	c, err := client.NewInProcessClient(st.srv.MCP())
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return err
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "cdpmcp-call", Version: version}
	if _, err := c.Initialize(ctx, init); err != nil {
		return err
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	if res.IsError {
		return callOutcome(tool, res)
	}
	for _, content := range res.Content {
		switch v := content.(type) {
		case mcp.TextContent:
			fmt.Println(v.Text)
		case mcp.ImageContent:
			if out == "" {
				fmt.Printf("[%s image, %d bytes base64; pass --out FILE to save it]\n", v.MIMEType, len(v.Data))
				continue
			}
			data, err := base64.StdEncoding.DecodeString(v.Data)
			if err != nil {
				return err
			}
			if err := safefs.WriteUserFile(out, data, 0o644); err != nil {
				return err
			}
			fmt.Printf("wrote %s (%d bytes)\n", out, len(data))
		}
	}
	return callOutcome(tool, res)
}

// unknownTool says that no tool has the name, and which one is near it.
func unknownTool(tool string) error {
	if near := nearest(tool, tools.ToolNames()); near != "" {
		return fmt.Errorf("cdpmcp call: no tool %q; did you mean %s? (cdpmcp tools lists them)", tool, near)
	}
	return fmt.Errorf("cdpmcp call: no tool %q (cdpmcp tools lists them)", tool)
}

// callOutcome is the exit of a call: an error result fails, with its text as
// the reason, and so does a run whose structured answer says it did not
// succeed (run_browser_agent stopped by a limit); the error names why, when
// the answer says.
func callOutcome(tool string, res *mcp.CallToolResult) error {
	var out struct {
		Success *bool  `json:"success"`
		Stop    string `json:"stop"`
		Reason  string `json:"reason"`
	}
	if b, err := json.Marshal(res.StructuredContent); err == nil {
		_ = json.Unmarshal(b, &out)
	}
	why := ""
	if out.Stop != "" {
		why = " (" + out.Stop + ")"
	}
	if out.Reason != "" {
		why += ": " + out.Reason
	}
	switch {
	case res.IsError:
		// The text is the reason, unless the structured answer gave it:
		// then what the text adds follows (run_browser_agent's record).
		var text []string
		for _, content := range res.Content {
			v, ok := content.(mcp.TextContent)
			if !ok {
				continue
			}
			for _, line := range strings.Split(strings.TrimSpace(v.Text), "\n") {
				if line != "" && (out.Reason == "" || !strings.Contains(line, out.Reason)) {
					text = append(text, line)
				}
			}
		}
		switch {
		case len(text) == 0:
		case out.Reason == "":
			why += ": " + strings.Join(text, "\n")
		default:
			why += "\n" + strings.Join(text, "\n")
		}
		return fmt.Errorf("%s failed%s", tool, why)
	case out.Success != nil && !*out.Success:
		return fmt.Errorf("%s did not succeed%s", tool, why)
	}
	return nil
}
