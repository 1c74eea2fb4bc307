package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What a user types never reaches the --trace file: not in tool arguments, CDP
// commands, script results, request bodies or later snapshots.
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
	for _, secret := range []string{pw, typed, key, "key-SECRET", "SECRET-2", "SECRET-1", "user-SEC"} {
		if strings.Contains(string(b), secret) {
			i := strings.Index(string(b), secret)
			t.Errorf("trace contains %q: …%s…", secret, string(b)[max(0, i-200):min(len(b), i+60)])
		}
	}
}
