package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/mark3labs/mcp-go/mcp"
)

// addUnoffered registers, for every tool this server knows but does not
// offer, a stand-in that listFilter keeps out of tools/list: a call by that
// name answers why the tool is not offered and how to get it, where mcp-go
// would answer "tool 'click' not found". A stand-in never touches a browser.
func (s *Server) addUnoffered(offered []toolDef) {
	s.unoffered = map[string]bool{}
	for _, name := range ToolNames() {
		if name == agentToolName || slices.ContainsFunc(offered, func(t toolDef) bool { return t.tool.Name == name }) {
			continue
		}
		s.unoffered[name] = true
		why := s.whyNotOffered(name)
		s.mcp.AddTool(mcp.NewTool(name, mcp.WithDescription(why)), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError(why), nil
		})
	}
}

// whyNotOffered says why this configuration does not offer the tool name,
// and what would.
func (s *Server) whyNotOffered(name string) string {
	a := actions.ByName(name)
	job := slices.Contains(jobToolNames, name)
	switch {
	case s.cfg.ReadOnly && a != nil && !a.AllowedIn(true):
		return fmt.Sprintf("%s is not available in --read-only mode: it can change the page; this server offers reading, waiting, navigation and screenshots (tools/list names them)", name)
	case job && s.cfg.JobsOff != "":
		return fmt.Sprintf("%s is not available: %s", name, s.cfg.JobsOff)
	case len(s.cfg.Tools) > 0:
		return fmt.Sprintf("%s is not offered: this server was started with --tools %s; add %s to that list", name, strings.Join(s.cfg.Tools, ","), name)
	case job && s.cfg.Jobs == nil:
		return fmt.Sprintf("%s is not offered here: the job tools run under cdpmcp serve with --caps jobs (or --data-dir)", name)
	case job:
		return fmt.Sprintf("%s is not offered: start cdpmcp serve with --caps jobs (or --data-dir)", name)
	case a != nil && a.Group != "":
		return fmt.Sprintf("%s is in the %s capability group, which this server does not offer: start it with --caps %s (or --tools naming it)", name, a.Group, a.Group)
	case a != nil && slices.Contains(s.cfg.Caps, CapSlim):
		return fmt.Sprintf("%s is not among the tools of --caps slim: start the server without slim, or name it in --tools", name)
	}
	return name + " is not offered by this server"
}

// Offers reports whether the server offers the tool name (a stand-in of an
// unoffered tool is registered, not offered).
func (s *Server) Offers(name string) bool { return !s.unoffered[name] }
