package tools

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/mark3labs/mcp-go/mcp"
)

// The job tools' schemas: seed 002's, with the extra fields documented in
// their descriptions (see testdata/seed002 for the seed's own).
//
//go:embed jobschemas/*.json
var jobSchemas embed.FS

func jobSchema(name string) json.RawMessage {
	b, err := jobSchemas.ReadFile("jobschemas/" + name + ".json")
	if err != nil {
		panic(err) // embedded: a missing file is a build mistake
	}
	return b
}

// jobToolNames are the job horde's tools, in catalogue order.
var jobToolNames = []string{"browser.job.submit", "browser.job.status", jobWaitName, "browser.job.cancel", "browser.job.resume", "browser.snapshot.extract_structured"}

// jobWaitName waits for a job: a long poll, or an MCP task.
const jobWaitName = "browser.job.wait"

// jobTools are seed 002's five tools; offered when the server has a job queue.
func (s *Server) jobTools() []toolDef {
	if s.cfg.Jobs == nil {
		return nil
	}
	def := func(name, file, desc string, ro, destructive, idempotent, open bool, run func(context.Context, *jobs.Queue, json.RawMessage) (*mcp.CallToolResult, error)) toolDef {
		tool := mcp.NewToolWithRawSchema(name, desc, jobSchema(file+".in"))
		out := file
		if file == "wait" {
			out = "status" // it answers what status does
		}
		tool.RawOutputSchema = jobSchema(out + ".out")
		tool.Annotations = mcp.ToolAnnotation{
			ReadOnlyHint: mcp.ToBoolPtr(ro), DestructiveHint: mcp.ToBoolPtr(destructive),
			IdempotentHint: mcp.ToBoolPtr(idempotent), OpenWorldHint: mcp.ToBoolPtr(open),
		}
		return toolDef{tool: tool, ownTimeout: name == jobWaitName, run: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			q, err := s.cfg.Jobs(ctx)
			if err != nil {
				return mcp.NewToolResultError("the job queue is not available: " + err.Error()), nil
			}
			raw := req.Params.RawArguments
			if raw == nil {
				if raw, err = json.Marshal(req.Params.Arguments); err != nil {
					return nil, err
				}
			}
			res, err := run(ctx, q, raw)
			if err != nil {
				return jobErrResult(ctx, err)
			}
			return res, nil
		}}
	}
	return []toolDef{
		def("browser.job.submit", "submit",
			"Queue a browser job; answers at once with its jobId (poll browser.job.status). task.type: navigate (open url; finalUrl, screenshot), "+
				"extract (selectors → their text; extract: a JSON schema → data, x-selector per property), message (task.text typed into selectors[0], "+
				"selectors[1] clicked; sent at most once), login (username/password; with handoffAllowed a CAPTCHA or missing password waits for a person), "+
				"custom (task.instructions run by the agent). priority 0-10 (default 5, higher first). profile keeps cookies across jobs. "+
				"Retrying with the same correlationId and arguments answers the same job (duplicate, currentStatus); another job needs a new correlationId.",
			false, true, true, true, s.submitJob),
		def("browser.job.status", "status",
			"A job's status: status, progress 0-1, summary, finalUrl, artifacts (file paths: screenshot, trace, networkLog, video), error, "+
				"result (extract data), handoffUrl when WAITING_FOR_HUMAN.",
			true, false, true, false, jobStatus),
		def(jobWaitName, "wait",
			"Wait until a job ends or waits for a person, then answer its status as browser.job.status does. timeoutMs bounds the wait "+
				"(default 25000, at most 600000); past it the status is answered as it is. Call it as an MCP task to wait longer (up to an hour).",
			true, false, true, false, s.waitJob),
		def("browser.job.cancel", "cancel",
			"Cancel an unfinished job (queued, running or waiting); its tab is closed. A cancelled one answers CANCELLED again; a succeeded or failed one cannot be cancelled.",
			false, true, true, false, cancelJob),
		def("browser.job.resume", "resume",
			"Resume a job in WAITING_FOR_HUMAN once a person has done what it waited for (e.g. solved a CAPTCHA in its tab); it goes on in the same tab.",
			false, false, true, false, resumeJob),
		def("browser.snapshot.extract_structured", "extract_structured",
			"Open url and fill schema (a JSON schema) with what the page states: JSON-LD, microdata, x-selector properties, tables (arrays of "+
				"objects keyed by headers), label/value pairs. Fields not on the page are left out and listed in missing, never guessed.",
			true, false, true, true, s.extractStructured),
	}
}

// decodeArgs reads a tool's arguments strictly into v: an argument of the
// wrong type, or one the tool does not take (a misspelt "selecters" would
// otherwise leave the job without its selectors, silently), is refused.
func decodeArgs(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &jobs.InputError{Msg: fmt.Sprintf("%s must be %s, not %s", te.Field, jsonType(te.Type.Kind().String()), te.Value), Hint: "check the argument types in the tool's input schema"}
		}
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return &jobs.InputError{Msg: "the tool takes no argument " + name, Hint: "check its spelling and place against the tool's input schema (task fields go inside task)"}
		}
		return &jobs.InputError{Msg: "the arguments are not a JSON object: " + err.Error(), Hint: "pass the arguments as a JSON object"}
	}
	return nil
}

func jsonType(kind string) string {
	switch kind {
	case "int", "int64", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	case "slice":
		return "an array"
	}
	return "an object"
}

// idArgs are the arguments status, cancel and resume share.
type idArgs struct {
	CorrelationID string `json:"correlationId"`
	JobID         string `json:"jobId"`
	Reason        string `json:"reason"`
	Note          string `json:"note"`
}

func readIDArgs(raw json.RawMessage) (idArgs, error) {
	var a idArgs
	if err := decodeArgs(raw, &a); err != nil {
		return a, err
	}
	return checkIDArgs(a)
}

// checkIDArgs checks the arguments that name a job.
func checkIDArgs(a idArgs) (idArgs, error) {
	if a.CorrelationID == "" {
		return a, &jobs.InputError{Msg: "correlationId is missing", Hint: "pass the correlationId you submitted the job with"}
	}
	if a.JobID == "" {
		return a, &jobs.InputError{Msg: "jobId is missing", Hint: "pass the jobId browser.job.submit answered"}
	}
	return a, nil
}

// jobErrResult answers a failed job call with a message and a hint.
func jobErrResult(ctx context.Context, err error) (*mcp.CallToolResult, error) {
	var (
		ie *jobs.InputError
		se *jobstore.StateError
		ce *jobs.ConflictError
	)
	switch {
	case errors.As(err, &ce):
		return mcp.NewToolResultError(ce.Error() + "\nhint: " + ce.Hint()), nil
	case errors.As(err, &ie):
		msg := ie.Msg
		if ie.Hint != "" {
			msg += "\nhint: " + ie.Hint
		}
		return mcp.NewToolResultError(msg), nil
	case errors.Is(err, jobstore.ErrNotFound):
		return mcp.NewToolResultError("no such job\nhint: pass the jobId browser.job.submit answered"), nil
	case errors.As(err, &se):
		return mcp.NewToolResultError(stateMessage(se)), nil
	}
	return errResult(ctx, err)
}

func stateMessage(se *jobstore.StateError) string {
	if len(se.Want) == 1 && se.Want[0] == jobs.WaitingForHuman {
		return fmt.Sprintf("job %s is %s, not WAITING_FOR_HUMAN: only a job waiting for a person can be resumed; nothing changed", se.ID, se.State)
	}
	if se.State.Terminal() {
		return fmt.Sprintf("job %s has already finished (%s); nothing changed", se.ID, se.State)
	}
	return fmt.Sprintf("job %s is %s; nothing changed", se.ID, se.State)
}

// structured answers with v as structuredContent and the same JSON as text.
func structured(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultStructured(json.RawMessage(b), string(b)), nil
}
