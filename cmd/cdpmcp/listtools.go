package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// listTools prints the catalogue the server would offer with these flags.
func listTools(ctx context.Context, cfg config, w io.Writer, asJSON bool) error {
	st, err := build(cfg)
	if err != nil {
		return err
	}
	defer st.close()
	var list []mcp.Tool
	for _, t := range st.srv.MCP().ListTools() {
		if st.srv.Offers(t.Tool.Name) {
			list = append(list, t.Tool)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"tools": list})
	}
	for _, t := range list {
		var flags []string
		a := t.Annotations
		if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
			flags = append(flags, "read-only")
		}
		if a.DestructiveHint != nil && *a.DestructiveHint {
			flags = append(flags, "destructive")
		}
		if a.IdempotentHint != nil && *a.IdempotentHint {
			flags = append(flags, "idempotent")
		}
		if a.OpenWorldHint != nil && *a.OpenWorldHint {
			flags = append(flags, "open-world")
		}
		fmt.Fprintf(w, "%-15s %s\n%-15s [%s]\n", t.Name, t.Description, "", strings.Join(flags, ", "))
	}
	return nil
}
