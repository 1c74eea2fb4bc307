package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A value filled into a password field, and a value the user marked secret
// (--secret-env), never come back: not in results the model reads (evaluate
// reading them back, console, page content after the form is posted, a URL
// carrying one), not in the logs at debug level, not in the trace, in any of
// the spellings they take there.
func TestSecretsRedactedByValue(t *testing.T) {
	t.Parallel()
	const pw = `pw-SECRET "1" <&> ü+x=y`
	marked := fmt.Sprintf("marked-SECRET-%d", os.Getpid())
	envName := fmt.Sprintf("CDPMCP_TEST_MARKED_%d", os.Getpid())
	if err := os.Setenv(envName, marked); err != nil {
		t.Fatal(err)
	}
	defer os.Unsetenv(envName)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	s := startStdio(t, "secrets", "--trace", trace, "--log-level", "debug", "--secret-env", envName)
	ctx := testCtx(t, 60*time.Second)
	if err := s.c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	var results []string
	call := func(tool string, args map[string]any) string {
		t.Helper()
		text := mustCall(t, ctx, s.c, tool, args)
		results = append(results, tool+": "+text)
		return text
	}
	call("navigate", map[string]any{"url": site.URL("/secret.html")})
	call("fill", map[string]any{"selector": "#pw", "value": pw})
	if got := call("evaluate", map[string]any{"expression": "document.querySelector('#pw').value"}); !strings.Contains(got, "[secret]") {
		t.Errorf("reading the password back = %s, want it redacted", got)
	}
	call("evaluate", map[string]any{"expression": "JSON.stringify({v: document.querySelector('#pw').value, w: [document.querySelector('#pw').value]})"})
	call("evaluate", map[string]any{"expression": "console.log('the password is', document.querySelector('#pw').value); 1"})
	// Written all in \uXXXX escapes by the script, which the answer's JSON
	// escapes again: a run of escapes with the next layer's letters between
	// them.
	if got := call("evaluate", map[string]any{"expression": "[...document.querySelector('#pw').value].map(c => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('')"}); !strings.Contains(got, "[secret]") {
		t.Errorf("the password in \\u escapes = %s, want it redacted", got)
	}
	// Its bytes (a Uint8Array, which evaluate answers as a list of
	// numbers) and its characters' codes.
	for _, expr := range []string{"new TextEncoder().encode(document.querySelector('#pw').value)",
		"[...document.querySelector('#pw').value].map(c => c.charCodeAt(0))"} {
		if got := call("evaluate", map[string]any{"expression": expr}); !strings.Contains(got, "[secret]") || strings.Contains(got, "112,119") {
			t.Errorf("%s = %s, want it redacted", expr, got)
		}
	}
	call("type", map[string]any{"selector": "#user", "text": marked})
	if got := call("evaluate", map[string]any{"expression": "document.querySelector('#user').value"}); !strings.Contains(got, "[secret]") {
		t.Errorf("reading the marked value back = %s, want it redacted", got)
	}
	call("console", nil)
	call("snapshot", nil)
	call("click", map[string]any{"selector": "#go"}) // posts both to /echo
	call("getContent", map[string]any{"format": "html"})
	call("getContent", nil)
	call("navigate", map[string]any{"url": site.URL("/echo?pw=" + url.QueryEscape(pw) + "&m=" + marked)})
	call("getUrl", nil)
	call("network", nil)
	if err := s.c.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{"results": strings.Join(results, "\n"), "trace": string(b), "logs": s.stderr.String()}
	if !strings.Contains(where["logs"], "level=DEBUG") {
		t.Fatalf("no debug logs to check")
	}
	for _, secret := range []string{pw, url.QueryEscape(pw), `pw-SECRET \"1\"`, "pw-SECRET &quot;1&quot;", `pw-SECRET \\\"1`,
		marked, "SECRET \"1\" <&", "SECRET \"1\" &lt;"} {
		for name, text := range where {
			if i := strings.Index(text, secret); i >= 0 {
				t.Errorf("%s contain %q: …%s…", name, secret, text[max(0, i-150):min(len(text), i+60)])
			}
		}
	}
}
