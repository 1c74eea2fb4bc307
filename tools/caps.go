package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/mark3labs/mcp-go/mcp"
)

// Capability groups (--caps) keep the default tools/list small: the core set is
// always offered, each other group (vision, storage, network, …; see
// actions.Groups) only when named. Two names are not groups: "all" offers every
// group, and "slim" cuts the core set down to slimTools, for clients that pay
// for every tool they are shown.
const (
	CapAll  = "all"
	CapSlim = "slim"
	// CapJobs offers seed 002's job tools (their seed schemas, output schemas
	// included, cost about 1,650 tokens of tools/list). An explicit --data-dir
	// turns it on too.
	CapJobs = "jobs"
)

// slimTools are the core tools --caps slim keeps: enough to load a page, read
// it and act on it.
var slimTools = []string{"navigate", "snapshot", "click", "type", "fill", "pressKey", "selectOption",
	"waitFor", "evaluate", "screenshot"}

// capAliases are playwright-mcp's names for our groups, so its users' --caps
// works as they wrote it.
var capAliases = map[string]string{"pdf": "files"}

// Caps lists the names --caps takes.
func Caps() []string { return append(actions.Groups(), CapJobs, CapAll, CapSlim) }

// CheckCaps refuses a --caps list naming an unknown group.
func CheckCaps(caps []string) error {
	known := Caps()
	for _, c := range caps {
		if !slices.Contains(known, c) && capAliases[c] == "" {
			return fmt.Errorf("unknown capability %q (capabilities: %s)", c, strings.Join(known, ", "))
		}
	}
	return nil
}

// offers reports whether this configuration offers the tool name of group
// ("" for the core set). A --tools list decides alone: it can name a tool of
// any group.
func (s *Server) offers(name, group string) bool {
	if len(s.cfg.Tools) > 0 {
		return slices.Contains(s.cfg.Tools, name)
	}
	caps := s.cfg.Caps
	if caps == nil {
		caps = []string{CapAll}
	}
	if group != "" {
		for _, c := range caps {
			if c == group || c == CapAll || capAliases[c] == group {
				return true
			}
		}
		return false
	}
	if slices.Contains(caps, CapSlim) {
		return slices.Contains(slimTools, name)
	}
	return true
}

// listFilter leaves run_browser_agent out of a session's tools/list when it
// could not run there (no --llm-base-url, and the client offers no sampling):
// a tool that can only answer "no model" is not worth its tokens. A call
// still reaches it (mcp-go filters a call with the one tool named) and says
// how to give it a model.
//
// It also leaves out the stand-ins of tools the server does not offer
// (unoffered.go), which a call reaches the same way.
func (s *Server) listFilter(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	if len(tools) < 2 {
		return tools
	}
	tools = slices.DeleteFunc(tools, func(t mcp.Tool) bool { return s.unoffered[t.Name] })
	if _, how := s.agentModel(ctx); how != modelNone {
		return tools
	}
	return slices.DeleteFunc(tools, func(t mcp.Tool) bool { return t.Name == agentToolName })
}

// OffersJobs reports whether cfg offers any job tool (given a job queue):
// --caps jobs or all, or a job tool named in --tools.
func OffersJobs(cfg Config) bool {
	s := &Server{cfg: cfg}
	for _, name := range jobToolNames {
		if s.offers(name, CapJobs) {
			return true
		}
	}
	return false
}
