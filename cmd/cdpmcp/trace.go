package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/tools"
)

// traceWriter writes CDP messages and tool calls as JSON lines, with typed text
// and filled values redacted, and every remembered secret redacted by value
// wherever it shows up again.
type traceWriter struct {
	mu      sync.Mutex
	f       *os.File
	enc     *json.Encoder
	secrets *secrets.Registry
}

func openTrace(path string, reg *secrets.Registry) (*traceWriter, error) {
	f, err := safefs.OpenUserFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	return &traceWriter{f: f, enc: json.NewEncoder(f), secrets: reg}, nil
}

func (t *traceWriter) write(v any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_ = t.enc.Encode(v)
}

func (t *traceWriter) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	_ = t.f.Close()
}

// TraceCDP implements cdpconn.Tracer.
func (t *traceWriter) TraceCDP(dir string, msg []byte) {
	t.write(struct {
		T   string          `json:"t"`
		CDP string          `json:"cdp"`
		Msg json.RawMessage `json:"msg"`
	}{now(), dir, t.secrets.RedactAllBytes(redactCDP(dir, msg))})
}

func (t *traceWriter) traceTool(tt tools.ToolTrace) {
	t.write(struct {
		T       string             `json:"t"`
		Tool    string             `json:"tool"`
		Args    json.RawMessage    `json:"args,omitempty"`
		IsError bool               `json:"isError,omitempty"`
		Result  string             `json:"result"`
		Ms      int64              `json:"ms"`
		Phases  map[string]float64 `json:"phases,omitempty"`
	}{now(), tt.Tool, t.secrets.RedactAllBytes(redactArgs(tt.Args)), tt.IsError, t.secrets.RedactAll(redactResult(tt.Result)), tt.Ms, tt.Phases})
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// secretArgs are tool arguments that may carry what a user typed.
var secretArgs = []string{"text", "value", "promptText"}

// redactArgs hides secretArgs at any depth: fillForm's fields carry their
// values one level down.
func redactArgs(raw json.RawMessage) json.RawMessage {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return raw
	}
	if !redactValues(v) {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return out
}

// redactValues replaces the secretArgs of every object in v and reports
// whether it replaced any.
func redactValues(v any) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if slices.Contains(secretArgs, k) {
				x[k], changed = "[redacted]", true
			} else if redactValues(e) {
				changed = true
			}
		}
	case []any:
		for _, e := range x {
			if redactValues(e) {
				changed = true
			}
		}
	}
	return changed
}

// redactCDP hides what a user typed wherever the protocol carries it: the text
// of key and text-input events, the arguments and results of script calls
// (filled values pass through both), and request bodies (a login form's POST).
func redactCDP(dir string, msg []byte) json.RawMessage {
	var full map[string]json.RawMessage
	if json.Unmarshal(msg, &full) != nil {
		return nil
	}
	var method string
	_ = json.Unmarshal(full["method"], &method)
	changed := false
	switch {
	case dir == "send" && secretMethods[method]:
		full["params"], changed = redacted, true
	case dir == "recv" && method == "" && bytes.Contains(full["result"], []byte(`"value"`)):
		full["result"], changed = redacted, true
	case dir == "recv" && bytes.Contains(full["params"], []byte(`"postData`)):
		full["params"], changed = dropKeys(full["params"], "postData", "postDataEntries"), true
	case dir == "recv" && method == "Page.screencastFrame":
		// A live view's frames show the tab: they are not recorded.
		full["params"], changed = dropKeys(full["params"], "data"), true
	}
	if !changed {
		return msg
	}
	out, err := json.Marshal(full)
	if err != nil {
		return nil
	}
	return out
}

var redacted = json.RawMessage(`"[redacted]"`)

// secretMethods are commands whose parameters can carry typed text or values.
var secretMethods = map[string]bool{"Input.insertText": true, "Input.dispatchKeyEvent": true,
	"Input.imeSetComposition": true, "Runtime.callFunctionOn": true, "Runtime.evaluate": true}

// dropKeys removes keys at any depth of a JSON value.
func dropKeys(raw json.RawMessage, keys ...string) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return redacted
	}
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range keys {
				if _, ok := t[k]; ok {
					t[k] = "[redacted]"
				}
			}
			for _, c := range t {
				walk(c)
			}
		case []any:
			for _, c := range t {
				walk(c)
			}
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		return redacted
	}
	return out
}

// valuesInResults finds field values in tool results: feedback's "value" and
// snapshot lines' value= attributes.
var valuesInResults = regexp.MustCompile(`"value":"(?:[^"\\]|\\.)*"|\bvalue=(?:"[^"]*"|[^\s>]+)`)

func redactResult(s string) string {
	return valuesInResults.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, `"value"`) {
			return `"value":"[redacted]"`
		}
		return "value=[redacted]"
	})
}
