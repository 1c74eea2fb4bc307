package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What a user types never reaches the --trace file: not in tool arguments, CDP
// commands, script results, request bodies or later snapshots. Each tool
// call's line says where its time went (tracePhases).
func TestTraceKeepsSecrets(t *testing.T) {
	t.Parallel()
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	s := startStdio(t, "trace", "--trace", trace)
	ctx := testCtx(t, 60*time.Second)
	if err := s.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	const pw, typed, key = "pw-SECRET-1", "user-SECRET-2", "key-SECRET-3-too-long-for-the-field"
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/secret.html")})
	mustCall(t, ctx, s.c, "fill", map[string]any{"selector": "#pw", "value": pw})
	mustCall(t, ctx, s.c, "type", map[string]any{"selector": "#user", "text": typed})
	mustCall(t, ctx, s.c, "fill", map[string]any{"selector": "#key", "value": key})
	mustCall(t, ctx, s.c, "snapshot", nil)
	mustCall(t, ctx, s.c, "click", map[string]any{"selector": "#go"})
	if err := s.c.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"tool":"fill"`) || !strings.Contains(string(b), `"cdp":"send"`) || !strings.Contains(string(b), "[redacted]") {
		t.Fatalf("the trace lacks tool calls or CDP messages (%d bytes)", len(b))
	}
	tracePhases(t, b)
	for _, secret := range []string{pw, typed, key, "key-SECRET", "SECRET-2", "SECRET-1", "user-SEC"} {
		if strings.Contains(string(b), secret) {
			i := strings.Index(string(b), secret)
			t.Errorf("trace contains %q: …%s…", secret, string(b)[max(0, i-200):min(len(b), i+60)])
		}
	}
}

// tracePhases checks the phases of the trace's tool calls: the browser's
// time in every call that asked it something, a navigation's action and
// settling, the target found for a fill, a snapshot's walk and fit, and no
// phase longer than the call.
func tracePhases(t *testing.T, trace []byte) {
	t.Helper()
	want := map[string][]string{
		"navigate": {"browser", "act", "settle", "feedback", "redact", "encode"},
		"fill":     {"browser", "resolve", "act", "watch"},
		"snapshot": {"browser", "walk", "fit"},
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(trace)), "\n") {
		var call struct {
			Tool   string             `json:"tool"`
			Ms     float64            `json:"ms"`
			Phases map[string]float64 `json:"phases"`
		}
		if json.Unmarshal([]byte(line), &call) != nil || call.Tool == "" {
			continue
		}
		for _, name := range want[call.Tool] {
			if _, ok := call.Phases[name]; !ok {
				t.Errorf("the %s call's phases %v lack %s", call.Tool, call.Phases, name)
			}
		}
		if want[call.Tool] != nil && call.Phases["browser"] <= 0 {
			t.Errorf("the %s call spent no time waiting for the browser: %v", call.Tool, call.Phases)
		}
		for name, ms := range call.Phases {
			if ms < 0 || ms > call.Ms+1 {
				t.Errorf("the %s call took %v ms, its phase %s %v ms", call.Tool, call.Ms, name, ms)
			}
		}
		seen[call.Tool] = true
	}
	for tool := range want {
		if !seen[tool] {
			t.Errorf("no %s call in the trace", tool)
		}
	}
}
