// Package actions is the one catalogue of browser actions: each action's name,
// typed arguments, read-only class, and how it runs on a page and answers. The
// MCP layer (tools) renders it as MCP tools, the agent loop as the seed's action
// list, and the job horde runs it. It knows nothing of MCP or of language models.
package actions

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/learned"
)

// Class says what an action may change, which decides where it is offered.
type Class int

// Action classes.
const (
	// ClassRead only reads the page or the browser.
	ClassRead Class = iota
	// ClassNavigate loads documents, scrolls, waits or switches tabs: allowed in
	// read-only mode, where nothing a user could do to a page is.
	ClassNavigate
	// ClassAct does what a user does to a page (click, type, upload…): refused in
	// read-only mode.
	ClassAct
)

// Hints are the MCP annotation hints of an action, all four always stated.
type Hints struct {
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// Action is one entry of the catalogue.
type Action struct {
	// Name is the action's name, as MCP clients call it (e.g. "click").
	Name string
	// Class decides whether the action is offered in read-only mode.
	Class Class
	// OwnTimeout actions take their deadline from a timeoutMs argument; the
	// others run under the caller's default deadline.
	OwnTimeout bool
	// Group is the capability group the action belongs to; "" is the core
	// set offered by default. Other groups are offered when asked for, so the
	// default tool list stays small.
	Group string

	desc, roDesc   string
	hints, roHints Hints
	params         []Param
	schema         json.RawMessage
	run            func(ctx context.Context, env *Env, raw json.RawMessage) (*Result, error)
}

// Description is what a model reads about the action in the given mode.
func (a *Action) Description(readOnly bool) string {
	if readOnly && a.roDesc != "" {
		return a.roDesc
	}
	return a.desc
}

// Hints returns the action's annotation hints in the given mode.
func (a *Action) Hints(readOnly bool) Hints {
	if readOnly && a.roDesc != "" {
		return a.roHints
	}
	return a.hints
}

// Params lists the action's arguments in declaration order.
func (a *Action) Params() []Param { return a.params }

// Schema is the JSON Schema of the action's arguments (an object).
func (a *Action) Schema() json.RawMessage { return a.schema }

// AllowedIn reports whether the action is offered in the given mode.
func (a *Action) AllowedIn(readOnly bool) bool { return !readOnly || a.Class != ClassAct }

// Run decodes raw arguments (a JSON object, or empty) and runs the action. A
// problem with the arguments is a *cdpclient.ArgError; any other error is a
// failure to classify with cdpclient.Classify (a code, a message and a hint).
func (a *Action) Run(ctx context.Context, env *Env, raw json.RawMessage) (*Result, error) {
	if a.Name == Record.Name || !recordings.any() {
		return a.exec(ctx, env, raw)
	}
	// Some session records: note the browser context this call acts in (it
	// asks for it itself), and trace the call there if it is recording.
	var mu sync.Mutex
	var used *cdpclient.BrowserContext
	seen := *env
	seen.Context = func(ctx context.Context) (*cdpclient.BrowserContext, error) {
		bc, err := env.Context(ctx)
		if err == nil {
			mu.Lock()
			used = bc
			mu.Unlock()
		}
		return bc, err
	}
	start := time.Now()
	res, err := a.exec(ctx, &seen, raw)
	mu.Lock()
	bc := used
	mu.Unlock()
	if bc != nil {
		traceCall(bc, env, a.Name, raw, res, err, time.Since(start))
	}
	return res, err
}

// Env is what actions run against: the caller's browser context and the
// server's policy.
type Env struct {
	// Context returns the caller's browser context, connecting to the browser
	// first when needed.
	Context func(ctx context.Context) (*cdpclient.BrowserContext, error)
	// ReadOnly is audit mode: actions of class Act are not offered, evaluate
	// refuses side effects and cdp passes only reading methods.
	ReadOnly bool
	// Origins is the URL policy checked before a URL is opened (the browser
	// enforces the same list on every request).
	Origins *origins.List
	// Contexts keeps the caller's named contexts (contexts.go); nil where
	// there is one context only.
	Contexts Contexts
	// Artifacts is the directory audits write their files to (reports,
	// traces, full data); empty means DefaultArtifactsDir.
	Artifacts string
	// Secrets, if set, are redacted from the files audits write.
	Secrets *secrets.Registry
	// Home, when set, is the caller's own folder (a named tenant's): the
	// files it names (storage states, PDFs, uploads) are its own, another
	// path is no file at all (ownfiles.go). Empty: any file of the machine.
	Home string
	// NavTimeout is a navigation's deadline when the call names none
	// (timeoutMs): the server's --timeout; 0 means navTimeout.
	NavTimeout time.Duration
	// Screenshot is what a screenshot that names no size gets: the
	// server's --screenshot-max-width and --screenshot-scale.
	Screenshot ScreenshotDefaults
	// ClipboardRead allows reading the clipboard where it is the system's
	// or shared by sessions (--allow-clipboard-read; clipboard.go).
	ClipboardRead bool
	// SharedBrowser says several clients' sessions share the browser (over
	// HTTP), and with it its clipboard.
	SharedBrowser bool
	// Remote says the client may be on another machine (over HTTP): a file
	// the call writes is offered by its resource link, never as a file://
	// URL the client could not open.
	Remote bool
	// Learn, if set, learns a script from the actions run (learn.go): an
	// agent run's. Without it, a recording of the browser context learns.
	Learn *learned.Recorder
}

// ScreenshotDefaults size the screenshots that name no size of their own.
type ScreenshotDefaults struct {
	// MaxWidth, if not 0, is the widest an image may be, in pixels.
	MaxWidth int
	// Scale is "device" (default: the device's pixels) or "css" (one image
	// pixel per CSS pixel, whatever the device scale).
	Scale string
}

// Page returns the page id names in the caller's context, or the current page
// when id is empty.
func (e *Env) Page(ctx context.Context, id string) (*cdpclient.Page, error) {
	bc, err := e.Context(ctx)
	if err != nil {
		return nil, err
	}
	return bc.Page(ctx, id)
}

// Result is an action's answer: feedback for actions on a page, text for
// readings, an image for screenshots. Text, when set with Feedback, comes first
// (e.g. the tab list before a navigation's feedback).
type Result struct {
	Feedback *feedback.Feedback
	Text     string
	Image    *Image
	// Files are the files the action wrote, absolute paths (an audit's data,
	// a report, a recording, a PDF): the MCP layer offers them as resources
	// the caller can read.
	Files []string
}

// Failed reports whether the action did not happen.
func (r *Result) Failed() bool { return r.Feedback != nil && !r.Feedback.OK }

// Image is an encoded picture.
type Image struct {
	Data []byte
	MIME string
}

// deadline derives a context from a timeoutMs argument: def when 0, capped at
// two minutes.
func deadline(ctx context.Context, timeoutMs int, def time.Duration) (context.Context, context.CancelFunc, error) {
	if timeoutMs < 0 {
		return nil, nil, argErr("give timeoutMs in milliseconds, e.g. 10000", "timeoutMs %d is negative", timeoutMs)
	}
	d := def
	if timeoutMs > 0 {
		d = min(time.Duration(timeoutMs)*time.Millisecond, 2*time.Minute)
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, nil
}
