package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// probes are what a prober writes into a page to learn secret: every start
// and end of it (bare, before and after a "…", URL-encoded, in base64),
// pieces of its middle, and a dictionary of whole guesses (one character
// changed), secret itself among them.
func probes(secret string, rng *rand.Rand, guesses int) []string {
	var out []string
	for i := 1; i < len(secret); i++ {
		start, end := secret[:i], secret[i:]
		out = append(out, start, end, start+"…", "…"+end, url.QueryEscape(start), base64.StdEncoding.EncodeToString([]byte(start)),
			"/strength?v="+url.QueryEscape(start))
	}
	for i := 0; i+4 <= len(secret); i++ {
		out = append(out, secret[i:i+4], secret[i:min(len(secret), i+len(secret)/2)])
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789~*_-!"
	for range guesses {
		b := []byte(secret)
		b[rng.IntN(len(b))] = letters[rng.IntN(len(letters))]
		out = append(out, string(b))
	}
	return append(out, secret, url.QueryEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret)))
}

// The red team's probe, over HTTP with two named tokens: alice types and
// fills passwords and submits a login job; bob's evaluate calls return
// thousands of candidates for them, for both bearer tokens and for a
// --secret-env value, and bob reads which come back changed. Nothing of
// alice's and no token ever does, nor does a cut in bob's page move or mask
// anything for them; of the --secret-env value only the whole value is
// masked. Alice's own answers still hide her values, and no token reaches
// the log.
func TestProbingAcrossTenantsLearnsNothing(t *testing.T) {
	t.Parallel()
	envName := fmt.Sprintf("CDPMCP_TEST_PROBE_%d", os.Getpid())
	envValue := fmt.Sprintf("env-Tok3n~%d-9f8e7d6c", os.Getpid())
	if err := os.Setenv(envName, envValue); err != nil {
		t.Fatal(err)
	}
	defer os.Unsetenv(envName)
	const aliceTok, bobTok = "tok-alice-5c1e9a7f3b", "tok-bob-0d4f8e2a6c"
	s := startHTTP(t, "probe", "--auth-token", "alice="+aliceTok, "--auth-token", "bob="+bobTok, "--secret-env", envName,
		"--caps", "jobs", "--data-dir", filepath.Join(t.TempDir(), "data"), "--log-level", "debug")
	ctx := testCtx(t, 3*time.Minute)
	alice := tokenClient(t, ctx, s.url, aliceTok)
	bob := tokenClient(t, ctx, s.url, bobTok)

	typed, filled, jobPw := "alice~Typed*Pw_1234", "alice-Filled-Pw!9", "alice.job.Password-7"
	mustCall(t, ctx, alice, "navigate", map[string]any{"url": site.URL("/secrets/form?n=2")})
	mustCall(t, ctx, alice, "type", map[string]any{"selector": "#pw0", "text": typed})
	mustCall(t, ctx, alice, "fill", map[string]any{"selector": "#pw1", "value": filled})
	mustCall(t, ctx, alice, "browser.job.submit", map[string]any{"correlationId": "probe", "url": site.URL("/secrets/login"),
		"task": map[string]any{"type": "login", "username": "ann@example.com", "password": jobPw}})
	own := mustCall(t, ctx, alice, "evaluate", map[string]any{"expression": fmt.Sprintf("[%q, %q, %q, %q]", typed, filled, jobPw, envValue)})
	if strings.Count(own, "[secret]") != 4 {
		t.Fatalf("alice's own answer does not hide her values: %s", own)
	}

	rng := rand.New(rand.NewPCG(34, 2))
	mustCall(t, ctx, bob, "navigate", map[string]any{"url": site.URL("/secrets/form")})
	sent := 0
	probe := func(of string, cands []string, masked func(string) bool) {
		t.Helper()
		for len(cands) > 0 {
			chunk := cands[:min(len(cands), 400)]
			cands = cands[len(chunk):]
			b, _ := json.Marshal(chunk)
			text := mustCall(t, ctx, bob, "evaluate", map[string]any{"expression": string(b) + ".join('\\n')"})
			var joined string
			err := json.Unmarshal([]byte(text), &joined)
			got := strings.Split(joined, "\n")
			if err != nil || len(got) != len(chunk) {
				t.Fatalf("bob's evaluate answered …%s (%v)", text[max(0, len(text)-300):], err)
			}
			for i, c := range chunk {
				if (got[i] != c) != masked(c) {
					t.Errorf("bob's candidate %q for %s came back %q", c, of, got[i])
				}
			}
			sent += len(chunk)
		}
	}
	never := func(string) bool { return false }
	for _, secret := range []string{typed, filled, jobPw} {
		probe("alice's "+secret, probes(secret, rng, 1200), never)
	}
	for _, tok := range []string{aliceTok, bobTok} {
		probe("a token", probes(tok, rng, 300), never)
	}
	probe("the --secret-env value", probes(envValue, rng, 300), func(c string) bool {
		return strings.EqualFold(c, envValue) || c == url.QueryEscape(envValue) || c == base64.StdEncoding.EncodeToString([]byte(envValue))
	})
	if sent < 5000 {
		t.Fatalf("only %d candidates sent", sent)
	}

	// A cut in bob's page falls inside alice's password: nothing is masked.
	mustCall(t, ctx, bob, "evaluate", map[string]any{"expression": fmt.Sprintf(
		"document.body.textContent = 'x'.repeat(49990) + %q + ' ' + %q + 'y'.repeat(200); 1", typed, aliceTok)})
	for _, from := range []any{nil, 49995} {
		args := map[string]any{"format": "text"}
		if from != nil {
			args["from"] = from
		}
		if text := mustCall(t, ctx, bob, "getContent", args); strings.Contains(text, "[secret]") {
			t.Errorf("bob's getContent (from %v) masked something of alice's: …%s", from, text[max(0, strings.Index(text, "[secret]")-40):])
		}
	}
	for _, tok := range []string{aliceTok, bobTok} {
		if strings.Contains(s.stderr.String(), tok) {
			t.Errorf("the log holds the token %s", tok)
		}
	}
	t.Logf("bob sent %d candidates", sent)
}
