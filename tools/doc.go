// Package tools is the MCP layer of cdpmcp: one constructor per tool, a registry
// that honours --read-only and --tools, per-client browser contexts, and the
// mapping from cdpclient outcomes to tool results with hints. It is the only
// package besides cmd that imports mcp-go; it knows nothing of CDP wire types.
package tools
