package tools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/liveview"
	"github.com/mark3labs/mcp-go/server"
)

// Version is the server version reported to clients; cmd sets it at build time.
var Version = "dev"

// Config says which tools to offer and how they behave.
type Config struct {
	// ReadOnly offers only navigation, waiting, reading and screenshots; evaluate
	// refuses side effects and cdp allows read-only methods only.
	ReadOnly bool
	// Tools, if not empty, limits the catalogue to these tool names (of any
	// capability group).
	Tools []string
	// Caps names the capability groups offered besides the core set (see
	// caps.go): "vision", "storage", …, "all", and "slim" for a smaller core.
	// Nil offers every group, as a nil Tools offers every tool; cmd passes
	// the --caps list, an empty one for the core set alone.
	Caps []string
	// Artifacts is the directory audits write reports, traces and full data
	// to; empty means actions.DefaultArtifactsDir().
	Artifacts string
	// Timeout bounds every tool call that names no timeout of its own.
	Timeout time.Duration
	// IsolateSessions gives each MCP session its own browser context (own
	// cookies and pages); used over HTTP. Otherwise all share the default context.
	IsolateSessions bool
	// Trace, if set, sees every tool call after it finished.
	Trace func(ToolTrace)
	// Origins is the URL policy navigate checks before opening anything (the
	// browser enforces the same list on every request).
	Origins *origins.List
	// Agent configures run_browser_agent (see agent.go).
	Agent AgentConfig
	// Secrets are redacted from every result; nil means the browser manager's
	// registry (what went into password fields).
	Secrets *secrets.Registry
	// Jobs, if set, offers seed 002's job tools; it returns the job queue,
	// waiting (within ctx) for it to open, or why it is not available.
	Jobs func(ctx context.Context) (*jobs.Queue, error)
	// LiveView, if set, lets a person take over a tab: run_browser_agent's
	// ask_human hands its tab there (when the client can show the link).
	LiveView *liveview.Server
	// HandoffTimeout bounds a wait for a person (default 30 min).
	HandoffTimeout time.Duration
	// JobHandoff, if set, is the job queue's handoff: the server tells it
	// which client to ask when a job needs a person.
	JobHandoff *JobHandoff
	// JobsOff says why the job tools are off although the data dir has jobs
	// (another server holds it); the instructions say it, and a call to one
	// answers with it.
	JobsOff string
	// Screenshot sizes the screenshots that name no size of their own
	// (--screenshot-max-width, --screenshot-scale).
	Screenshot actions.ScreenshotDefaults
	// ClipboardRead lets the clipboard tool read the system's clipboard, or
	// one the sessions share (--allow-clipboard-read).
	ClipboardRead bool
}

// ToolTrace records one tool call for --trace. Args are as the client sent them;
// the receiver must redact secrets.
type ToolTrace struct {
	Tool    string
	Args    json.RawMessage
	IsError bool
	Result  string // text of the result, cut to 2000 bytes
	Ms      int64
	// Phases is where the call's time went, in ms by phase (internal/spans):
	// browser (a request to it unanswered), queue (behind another action on
	// the page), resolve, watch, act, settle, feedback, walk and fit (a
	// snapshot's), redact and encode. Phases overlap: browser time is part of
	// the others.
	Phases map[string]float64
}

// Server is the cdpmcp MCP server: the tools and the per-session browser state.
type Server struct {
	cfg      Config
	mcp      *server.MCPServer
	sessions *sessions
	env      *actions.Env // what actions run against: the caller's context, the policy
	rounds   roundTrips   // agent runs waiting for a client's model (agentrounds.go)
	secrets  *secrets.Registry
	// submitters and asks reach the person behind a client (handoff.go).
	submitters submitters
	asks       elicitations
	// unoffered are the known tools this server does not offer: callable
	// stand-ins that say why, never listed (unoffered.go).
	unoffered map[string]bool
	// drain lets a shutdown finish or stop the calls in flight (drain.go).
	drain drain
	// answered counts the tool calls answered (callsanswered.go).
	answered callsAnswered
	// tasks are the calls running as MCP tasks (tasks.go); links the files
	// calls wrote, offered as resources (resources.go).
	tasks taskRuns
	links fileLinks
}

// New builds the MCP server with the tools Config allows, over the browser mgr
// hands out. The browser is not touched until the first tool call.
func New(cfg Config, mgr *cdpclient.Manager) *Server {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	s := &Server{cfg: cfg, secrets: secretsOf(cfg, mgr)}
	s.sessions = newSessions(mgr, cfg.IsolateSessions, s.secrets)
	s.env = &actions.Env{Context: s.sessions.context, ReadOnly: cfg.ReadOnly, Origins: cfg.Origins,
		Contexts: sessionContexts{s.sessions}, Artifacts: cfg.Artifacts, Secrets: s.secrets,
		NavTimeout: cfg.Timeout, Screenshot: cfg.Screenshot, ClipboardRead: cfg.ClipboardRead, SharedBrowser: cfg.IsolateSessions,
		Remote: cfg.IsolateSessions}
	hooks, taskHooks := &server.Hooks{}, &server.TaskHooks{}
	hooks.AddOnUnregisterSession(func(ctx context.Context, cs server.ClientSession) {
		s.tasks.endSession(cs.SessionID())
		s.drain.endSession(cs.SessionID()) // before its context closes under its calls
		s.sessions.drop(cs.SessionID())
		s.submitters.drop(cs.SessionID())
	})
	s.tasks.hook(hooks, taskHooks)
	s.answered.hook(hooks)
	s.mcp = server.NewMCPServer("cdpmcp", Version,
		server.WithToolCapabilities(false),
		server.WithTaskCapabilities(true, true, true),
		server.WithTaskHooks(taskHooks),
		server.WithRecovery(),
		server.WithHooks(hooks),
		server.WithInstructions(instructionsFor(cfg)),
		server.WithToolFilter(s.listFilter),
	)
	offered := s.catalogue()
	for _, t := range offered {
		s.mcp.AddTool(t.tool, s.wrap(t))
	}
	s.addUnoffered(offered)
	s.addResources()
	if cfg.JobHandoff != nil {
		cfg.JobHandoff.bind(s)
	}
	return s
}

const instructions = "A real browser. Loop: navigate, snapshot (lines N[:]<tag>name</tag>), act on an element by " +
	"ref=N (click, fill, type, pressKey, selectOption…), read the feedback, snapshot again (diff:true for changes only). " +
	"Arguments: ref = element number from the latest snapshot; selector = CSS selector (also inside open shadow " +
	"roots), for when you have no ref; page = tab id (p1, p2…, see listPages), default the current tab. " +
	"Actions answer with feedback JSON {act, ref, ok, code, msg, delta, errors, net, dialog, opened, timing, hint}; " +
	"codes 0 ok, 1 not found, 2 disabled, 3 obscured, 4 timeout, 5 navigation, 6 JS error, 7 network error, " +
	"8 permission, 9 validation, 10 browser unavailable (cdpmcp's set-up), 11 browser gone (call again), 12 internal. On failure follow the hint."

// instructionsFor are the instructions a client gets at initialize: how to
// drive the browser, and what this server does not offer although it could
// (the job tools, when another server holds the data dir), so a client on
// stdio, where nobody reads the log, learns it too.
func instructionsFor(cfg Config) string {
	if cfg.JobsOff == "" {
		return instructions
	}
	return instructions + "\nNote: " + cfg.JobsOff + "."
}

// MCP returns the underlying mcp-go server, for a transport to serve.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// Close releases every session's browser context, and leaves no dialog open
// in the tabs of a browser cdpmcp attached to. The browser itself belongs to
// the Manager.
func (s *Server) Close() {
	s.sessions.closeAll()
	s.leaveNoDialog()
}
