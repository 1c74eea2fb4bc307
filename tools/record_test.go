package tools

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/agentloop"
)

var recordedFile = regexp.MustCompile(`(?m)^(trace|network|video|script): (\S+)`)

// recordedFiles reads the paths a stop answer names.
func recordedFiles(t *testing.T, answer string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range recordedFile.FindAllStringSubmatch(answer, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// A user records a sign-in: the trace holds each tool call with its answer and
// what the page did (its request, its console line), the HAR the page's
// requests, the video its screen; the password is in none of them, and what
// happens after stop is not recorded.
func TestRecordThroughMCP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Caps: []string{"devtools", "storage"}, Artifacts: dir}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)

	if r := callTool(t, c, "record", map[string]any{"op": "stop"}); !r.isError || !contains(r.text, "no recording is running") || !contains(r.text, `{"op":"start"}`) {
		t.Errorf("stop before start: %s", r.text)
	}
	if r := callTool(t, c, "record", map[string]any{"op": "begin"}); !r.isError || !contains(r.text, `unknown op "begin"`) {
		t.Errorf("an unknown op: %s", r.text)
	}
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/record.html")}))
	wantIn(t, callTool(t, c, "record", map[string]any{"op": "start", "video": true}), "recording p1 and the session's other tabs (trace and network log, video of p1) into "+dir)
	if r := callTool(t, c, "record", map[string]any{"op": "start"}); !r.isError || !contains(r.text, "already running") || !contains(r.text, `{"op":"stop"}`) {
		t.Errorf("a second start: %s", r.text)
	}
	const password = `hunter2-"Kx9q"&<ok>`
	mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#user", "value": "alice"}))
	// A password typed where no field is: the call fails before any field
	// took it as a secret.
	if r := callTool(t, c, "type", map[string]any{"selector": "#no-such-field", "text": password}); !r.isError && !contains(r.text, `"ok":false`) {
		t.Errorf("typing into no field: %s", r.text)
	}
	mustOK(t, callTool(t, c, "type", map[string]any{"selector": "#pw", "text": password}))
	wantIn(t, callTool(t, c, "cookies", map[string]any{"op": "set", "name": "sid", "value": "cookie-Secret-77", "url": site.URL("/")}), "sid")
	wantIn(t, callTool(t, c, "cookies", map[string]any{"op": "list"}), "cookie-Secret-77")
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#go"}))
	mustOK(t, callTool(t, c, "waitFor", map[string]any{"text": "signed in: user=alice"}))
	wantIn(t, callTool(t, c, "record", map[string]any{"op": "status"}), "recording p1 since")
	mustOK(t, callTool(t, c, "newPage", map[string]any{"url": site.URL("/home.html")}))
	stop := callTool(t, c, "record", map[string]any{"op": "stop"})
	wantIn(t, stop, "recorded p1 and 1 more tabs for", "requests)", "frames)")
	t.Logf("stop answered:\n%s", stop.text)
	files := recordedFiles(t, stop.text)

	trace, err := os.ReadFile(files["trace"])
	if err != nil {
		t.Fatalf("trace: %v (%s)", err, stop.text)
	}
	var acts []string
	var sawPost, sawConsole bool
	for _, l := range bytes.Split(bytes.TrimSpace(trace), []byte("\n")) {
		var line map[string]any
		if err := json.Unmarshal(l, &line); err != nil {
			t.Fatalf("trace line %q: %v", l, err)
		}
		switch {
		case line["kind"] == "action":
			acts = append(acts, line["act"].(string))
		case line["method"] == "Network.requestWillBeSent" && line["httpMethod"] == "POST" && strings.HasSuffix(line["url"].(string), "/parity/echo"):
			sawPost = true
		case line["method"] == "Runtime.consoleAPICalled" && line["text"] == "signing in alice":
			sawConsole = true
		}
	}
	if got := strings.Join(acts, ","); got != "fill,type,type,cookies,cookies,click,waitFor,newPage" || !sawPost || !sawConsole {
		t.Errorf("trace: actions %s (want fill,type,type,cookies,cookies,click,waitFor,newPage), the POST %v, the console line %v:\n%s", got, sawPost, sawConsole, trace)
	}
	if !bytes.Contains(trace, []byte(`"args":{"selector":"#user","value":"alice"}`)) {
		t.Errorf("the trace lacks fill's arguments:\n%s", trace)
	}

	har, err := os.ReadFile(files["network"])
	var h struct {
		Log struct {
			Entries []struct {
				PageRef string
				Request struct {
					Method, URL string
				}
				Response struct{ Status int }
			}
		}
	}
	if err != nil || json.Unmarshal(har, &h) != nil {
		t.Fatalf("HAR %s: %v", files["network"], err)
	}
	posted, secondTab := false, false
	for _, e := range h.Log.Entries {
		posted = posted || (e.Request.Method == "POST" && strings.HasSuffix(e.Request.URL, "/parity/echo") && e.Response.Status == 200)
		secondTab = secondTab || (strings.HasSuffix(e.Request.URL, "/home.html") && strings.HasPrefix(e.PageRef, "p2_"))
	}
	if !posted || !secondTab {
		t.Errorf("the HAR lacks the POST to /parity/echo (%v) or the second tab's page (%v): %s", posted, secondTab, har)
	}
	video, err := os.ReadFile(files["video"])
	if err != nil || !bytes.HasPrefix(video, []byte{0x1a, 0x45, 0xdf, 0xa3}) {
		t.Errorf("video %q: %v (%d bytes)", files["video"], err, len(video))
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, secret := range []string{"hunter2", "Kx9q", "cookie-Secret-77"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds %q", f, secret)
			}
		}
	}

	// After stop, calls are not recorded.
	mustOK(t, callTool(t, c, "click", map[string]any{"page": "p1", "selector": "#go"}))
	if after, _ := os.ReadFile(files["trace"]); !bytes.Equal(after, trace) {
		t.Errorf("the trace grew after stop:\n%s", after[len(trace):])
	}
}

// Recording changes nothing on the page: read-only mode offers it.
func TestRecordInReadOnlyMode(t *testing.T) {
	t.Parallel()
	s := New(Config{ReadOnly: true, IsolateSessions: true, Timeout: callTimeout, Caps: []string{"devtools"}, Artifacts: t.TempDir()}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/record.html")}))
	mustOK(t, callTool(t, c, "record", map[string]any{"op": "start"}))
	mustOK(t, callTool(t, c, "reload", nil))
	stop := callTool(t, c, "record", map[string]any{"op": "stop"})
	wantIn(t, stop, "recorded p1 for")
	if contains(stop.text, "(0 requests)") {
		t.Errorf("the reload's requests are not in the HAR: %s", stop.text)
	}
}

// A recording the user never stopped is written when the session ends:
// nothing recorded is lost.
func TestRecordEndsWithTheSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Caps: []string{"devtools"}, Artifacts: dir}, mgr)
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/parity/record.html")}))
	mustOK(t, callTool(t, c, "record", map[string]any{"op": "start"}))
	mustOK(t, callTool(t, c, "fill", map[string]any{"selector": "#user", "value": "bob"}))
	s.Close()
	dirs, _ := filepath.Glob(filepath.Join(dir, "recording-*"))
	if len(dirs) != 1 {
		t.Fatalf("recordings in %s: %v", dir, dirs)
	}
	trace, err := os.ReadFile(filepath.Join(dirs[0], "trace.jsonl"))
	if err != nil || !bytes.Contains(trace, []byte(`"act":"fill"`)) {
		t.Errorf("the trace of a session that ended: %v\n%s", err, trace)
	}
	if _, err := os.Stat(filepath.Join(dirs[0], "network.har")); err != nil {
		t.Errorf("no HAR: %v", err)
	}
}

// Tabs the page opens itself (a target=_blank link, window.open) are recorded
// from their first request.
func TestRecordFollowsPopups(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Caps: []string{"devtools"}, Artifacts: t.TempDir()}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/behave/popup.html")}))
	mustOK(t, callTool(t, c, "record", map[string]any{"op": "start"}))
	mustOK(t, callTool(t, c, "click", map[string]any{"selector": "#blank"}))
	mustOK(t, callTool(t, c, "click", map[string]any{"page": "p1", "selector": "#open"}))
	stop := callTool(t, c, "record", map[string]any{"op": "stop"})
	wantIn(t, stop, "recorded p1 and 2 more tabs")
	har, err := os.ReadFile(recordedFiles(t, stop.text)["network"])
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range []string{"p2", "p3"} {
		if !regexp.MustCompile(`"pageref": "` + tab + `_page_1",\s*"startedDateTime": "[^"]+",\s*"time": [\d.]+,\s*"request": \{\s*"method": "GET",\s*"url": "[^"]+/second.html"`).Match(har) {
			t.Errorf("the HAR lacks %s's load of /second.html:\n%s", tab, har)
		}
	}
}

// run_browser_agent's steps are tool calls of the session: a recording holds
// them.
func TestRecordHoldsAgentSteps(t *testing.T) {
	t.Parallel()
	chat := newChatServer(t, twoSteps()...)
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Artifacts: t.TempDir(), Agent: AgentConfig{
		LLM:  agentloop.OpenAI{BaseURL: chat.srv.URL + "/v1", Timeout: callTimeout},
		Loop: agentloop.Config{MaxSteps: 5, RunDir: t.TempDir()},
	}}, mgr)
	t.Cleanup(s.Close)
	c := newClient(t, s)
	mustOK(t, callTool(t, c, "record", map[string]any{"op": "start"}))
	res, out := agentOutcome(t, testCtx(t), c, "Tell me the heading of the home page", false)
	checkDone(t, res, out)
	stop := callTool(t, c, "record", map[string]any{"op": "stop"})
	trace, err := os.ReadFile(recordedFiles(t, stop.text)["trace"])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(trace, []byte(`"act":"navigate","args":{"url":"`+site.URL("/home.html")+`"}`)) {
		t.Errorf("the trace lacks the agent's navigation:\n%s", trace)
	}
}
