package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// call runs one tool through an in-process MCP client and prints the result:
// text as is, images as a note (or to --out). A tool error exits non-zero.
func call(ctx context.Context, cfg config, tool, rawArgs, out string) error {
	args := map[string]any{}
	if rawArgs != "" {
		if err := json.Unmarshal([]byte(rawArgs), &args); err != nil {
			return fmt.Errorf("arguments must be a JSON object, e.g. '{\"url\":\"https://example.com\"}': %w", err)
		}
	}
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
			if err := os.WriteFile(out, data, 0o644); err != nil {
				return err
			}
			fmt.Printf("wrote %s (%d bytes)\n", out, len(data))
		}
	}
	return callOutcome(tool, res)
}

// callOutcome is the exit of a call: an error result fails, and so does a
// run whose structured answer says it did not succeed (run_browser_agent
// stopped by a limit); the error names why, when the answer says.
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
		return fmt.Errorf("%s failed%s", tool, why)
	case out.Success != nil && !*out.Success:
		return fmt.Errorf("%s did not succeed%s", tool, why)
	}
	return nil
}
