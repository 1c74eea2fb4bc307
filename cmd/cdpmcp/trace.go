package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/tools"
)

// traceWriter writes CDP messages and tool calls as JSON lines, with typed text
// and filled values redacted.
type traceWriter struct {
	mu  sync.Mutex
	f   *os.File
	enc *json.Encoder
}

func openTrace(path string) (*traceWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	return &traceWriter{f: f, enc: json.NewEncoder(f)}, nil
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

// TraceCDP implements cdpclient.Tracer.
func (t *traceWriter) TraceCDP(dir string, msg []byte) {
	t.write(struct {
		T   string          `json:"t"`
		CDP string          `json:"cdp"`
		Msg json.RawMessage `json:"msg"`
	}{now(), dir, redactCDP(msg)})
}

func (t *traceWriter) traceTool(tt tools.ToolTrace) {
	t.write(struct {
		T       string          `json:"t"`
		Tool    string          `json:"tool"`
		Args    json.RawMessage `json:"args,omitempty"`
		IsError bool            `json:"isError,omitempty"`
		Result  string          `json:"result"`
		Ms      int64           `json:"ms"`
	}{now(), tt.Tool, redactArgs(tt.Args), tt.IsError, tt.Result, tt.Ms})
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// secretArgs are tool arguments that may carry what a user typed.
var secretArgs = []string{"text", "value", "promptText"}

func redactArgs(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return raw
	}
	changed := false
	for _, k := range secretArgs {
		if _, ok := m[k]; ok {
			m[k] = json.RawMessage(`"[redacted]"`)
			changed = true
		}
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return out
}

// redactCDP hides the text of key and text-input events and the arguments of
// function calls (which carry filled values).
func redactCDP(msg []byte) json.RawMessage {
	var m struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return msg
	}
	switch m.Method {
	case "Input.insertText", "Input.dispatchKeyEvent", "Runtime.callFunctionOn", "Runtime.evaluate":
		var full map[string]json.RawMessage
		if json.Unmarshal(msg, &full) != nil {
			return nil
		}
		full["params"] = json.RawMessage(`"[redacted]"`)
		out, _ := json.Marshal(full)
		return out
	}
	return msg
}
