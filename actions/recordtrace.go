package actions

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/feedback"
)

// traceCall writes a tool call into bc's running recording, if any:
// the action, its arguments and what it answered. Secrets are redacted before
// anything is cut (a cut secret would not be found); what a call would have
// typed or set is left out when it failed or was done in part (a password the
// field never took is in no registry yet), and the values of cookies, storage and routes always.
func traceCall(bc *cdpclient.BrowserContext, env *Env, name string, raw []byte, res *Result, err error, took time.Duration) {
	r := recordings.of(bc)
	if r == nil {
		return
	}
	redact := func(s string) string { return s }
	if env.Secrets != nil {
		redact = env.Secrets.Redact
	}
	// A call done in part (fillForm stopped by its deadline) counts as
	// failed here: the values it did not reach are in no registry.
	failed := err != nil || res == nil || res.Failed() || (res.Feedback != nil && res.Feedback.Incomplete != "")
	line := map[string]any{"ms": took.Milliseconds()}
	if len(raw) > 0 {
		line["args"] = traceArgs(name, raw, failed, redact)
	}
	switch {
	case err != nil:
		line["ok"], line["error"] = false, feedback.Truncate(redact(err.Error()), 500)
	case res == nil:
	case res.Feedback != nil:
		line["ok"], line["feedback"] = res.Feedback.OK, res.Feedback
	default:
		line["ok"] = true
		if res.Text != "" {
			if !stateActions[name] {
				line["text"] = feedback.Truncate(redact(res.Text), 300)
			}
			line["textBytes"] = len(res.Text)
		}
		if res.Image != nil {
			line["image"] = fmt.Sprintf("%s, %d bytes", res.Image.MIME, len(res.Image.Data))
		}
	}
	r.rec.Action(name, line)
}

// privateArgs are the arguments that carry what a call types or sets.
var privateArgs = map[string][]string{
	"type": {"text"}, "fill": {"value"}, "fillForm": {"fields"}, "handleDialog": {"promptText"},
	"cookies": {"value"}, "webStorage": {"value"}, "route": {"body", "headers"},
}

// stateActions read or set stored values (cookies, storage, headers): their
// values and answers are never traced.
var stateActions = map[string]bool{"cookies": true, "webStorage": true, "storageState": true, "request": true, "route": true}

// traceArgs is a call's arguments as the trace keeps them: a JSON object with
// private values replaced by their length, redacted, at most 4 kB.
func traceArgs(name string, raw []byte, failed bool, redact func(string) string) any {
	var args map[string]any
	if json.Unmarshal(raw, &args) != nil {
		return "[not a JSON object: not recorded]"
	}
	if failed || stateActions[name] {
		for _, k := range privateArgs[name] {
			if v, ok := args[k]; ok {
				args[k] = private(v)
			}
		}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(args) != nil {
		return "[not recorded]"
	}
	out := redact(strings.TrimSpace(b.String()))
	if len(out) > 4000 {
		return feedback.Truncate(out, 4000) // a string then: the object is cut
	}
	return json.RawMessage(out)
}

// private stands in for a value the trace does not keep.
func private(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("[%d characters, not recorded]", len([]rune(x)))
	case []any:
		return fmt.Sprintf("[%d items, not recorded]", len(x))
	default:
		return "[not recorded]"
	}
}
