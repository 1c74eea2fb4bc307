// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/cdpmcp/cdpmcp/learned"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// learnServer is a server with cfg, the record tool and the job tools (a
// queue of its own, whose jobs run without a model).
func learnServer(t *testing.T, cfg Config) *client.Client {
	t.Helper()
	dir, err := jobs.OpenDataDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, err := sqlite.Open(context.Background(), dir.DBPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	q, err := jobs.Open(context.Background(), jobs.Config{Dir: dir, Store: store, MaxTabs: 1, Browser: cdpclient.Options{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.IsolateSessions, cfg.Timeout, cfg.Caps = true, callTimeout, []string{"devtools", "jobs"}
	cfg.Jobs = func(context.Context) (*jobs.Queue, error) { return q, nil }
	s := New(cfg, mgr)
	t.Cleanup(func() {
		s.Close()
		_ = q.Close()
		_ = store.Close()
		_ = dir.Close()
	})
	return newClient(t, s)
}

// replayJob submits script as a job on a variant of the learn site through
// the job tools and answers its final status.
func replayJob(t *testing.T, c *client.Client, variant string, script []byte, params map[string]any) map[string]any {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(script, &obj); err != nil {
		t.Fatal(err)
	}
	corr := t.Name() + "-" + variant
	r := callTool(t, c, "browser.job.submit", map[string]any{"correlationId": corr, "url": site.URL("/learn/" + variant + "/signin"),
		"task": map[string]any{"type": "script", "script": obj, "params": params}})
	var sub struct{ JobID string }
	if r.isError || json.Unmarshal([]byte(r.text), &sub) != nil {
		t.Fatalf("submit: %s", r.text)
	}
	var st map[string]any
	testbound.Until(t, "the script job to end", func() bool {
		r := callTool(t, c, "browser.job.status", map[string]any{"correlationId": corr, "jobId": sub.JobID})
		st = nil
		_ = json.Unmarshal([]byte(r.text), &st)
		return st["status"] == "SUCCEEDED" || st["status"] == "FAILED"
	})
	return st
}

// noPassword fails when b holds the learn site's password in any common
// encoding.
func noPassword(t *testing.T, what string, b []byte) {
	t.Helper()
	pw := fixtures.LearnPassword
	for _, enc := range []string{pw, strings.ReplaceAll(pw, "-", "%2D"), "aHVudGVyMi1sZWFybmVk", `hunter2\u002dlearned`} {
		if strings.Contains(strings.ToLower(string(b)), strings.ToLower(enc)) {
			t.Errorf("%s holds the password (as %q)", what, enc)
		}
	}
}

var refOf = regexp.MustCompile(`(?m)^(\d+)\[:\]<(?:input|select|button)[^>]*>([^<]*)</`)

// refs maps the names of a snapshot's fields and buttons to their refs.
func refs(snapshot string) map[string]string {
	out := map[string]string{}
	for _, m := range refOf.FindAllStringSubmatch(snapshot, -1) {
		out[m[2]] = m[1]
	}
	return out
}

// A session signs in and orders through primitive calls, by the refs of its
// snapshots, while recording: record's stop names the script.json it wrote,
// which holds the steps in durable terms and no password; a script job
// replays it on the redesigned site without a model, and on the site whose
// button was renamed it fails naming that step.
func TestRecordWritesAScriptAJobReplays(t *testing.T) {
	t.Parallel()
	c := learnServer(t, Config{Artifacts: t.TempDir()})
	mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL("/learn/site/signin")}))
	wantIn(t, callTool(t, c, "record", map[string]any{"op": "start"}), "recording p1")
	r := refs(callTool(t, c, "snapshot", nil).text)
	mustOK(t, callTool(t, c, "fill", map[string]any{"ref": r["Email"], "value": "ada@example.com"}))
	mustOK(t, callTool(t, c, "type", map[string]any{"ref": r["Password"], "text": fixtures.LearnPassword}))
	mustOK(t, callTool(t, c, "click", map[string]any{"ref": r["Sign in"]}))
	r = refs(callTool(t, c, "snapshot", nil).text)
	mustOK(t, callTool(t, c, "fill", map[string]any{"ref": r["Full name"], "value": "Ada Lovelace"}))
	mustOK(t, callTool(t, c, "selectOption", map[string]any{"ref": r["Delivery"], "values": []string{"express"}}))
	mustOK(t, callTool(t, c, "click", map[string]any{"ref": r["Place order"]}))
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "record", map[string]any{"op": "stop"}
	stopRes, err := c.CallTool(testCtx(t), req)
	if err != nil || stopRes.IsError || len(stopRes.Content) == 0 {
		t.Fatalf("record stop: %v %+v", err, stopRes)
	}
	stopText, _ := stopRes.Content[0].(mcp.TextContent)
	m := regexp.MustCompile(`(?m)^script: (\S+) \(7 steps;`).FindStringSubmatch(stopText.Text)
	if m == nil {
		t.Fatalf("stop names no script of 7 steps:\n%s", stopText.Text)
	}
	// A client that cannot read the server's disk gets the script as a file.
	if link := resourceLink(t, stopRes.Content, "script.json"); !strings.HasPrefix(link.URI, "cdpmcp://files/") {
		t.Errorf("the script's link: %+v", link)
	}
	raw, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	noPassword(t, "script.json", raw)
	s, err := learned.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Steps[3]; st.Target == nil || st.Target.Role != "button" || st.Target.Name != "Sign in" || st.Expect == nil || st.Expect.Title != "New order · Acme" {
		t.Errorf("the sign-in step: %+v", st)
	}
	if strings.Contains(string(raw), `"ref"`) {
		t.Errorf("the script keeps a session's ref:\n%s", raw)
	}

	st := replayJob(t, c, "moved", raw, map[string]any{"password": fixtures.LearnPassword, "full_name": "MCP Moved"})
	res, _ := st["result"].(map[string]any)
	if st["status"] != "SUCCEEDED" || res["modelCalls"] != 0.0 || res["steps"] != 7.0 {
		t.Fatalf("the job on the redesign: %v", st)
	}
	b, _ := json.Marshal(st)
	noPassword(t, "the job's status", b)
	if !placedOrder("moved", "MCP Moved") {
		t.Error("no order placed on the redesign")
	}

	st = replayJob(t, c, "renamed", raw, map[string]any{"password": fixtures.LearnPassword, "full_name": "MCP Renamed"})
	if e, _ := st["error"].(string); st["status"] != "FAILED" || !strings.Contains(e, `step 4 (click button "Sign in"`) || !strings.Contains(e, "<button>Log in</button>") {
		t.Errorf("the job on the renamed site: %v", st)
	}
}

func placedOrder(variant, name string) bool {
	for _, o := range site.LearnOrders() {
		if o.Variant == variant && o.Name == name {
			return true
		}
	}
	return false
}

// orderModel is a chat-completions endpoint that does the learn site's task
// as a model would, reading the indexes of the element list it is shown:
// open the sign-in page, sign in, fill the order and place it, say done.
func orderModel(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	index := func(prompt, name string) string {
		m := regexp.MustCompile(`(?m)^(\d+)\[:\]<(?:input|select|button)[^>]*>` + regexp.QuoteMeta(name) + `</`).FindStringSubmatch(prompt)
		if m == nil {
			t.Errorf("no %q in the prompt:\n%s", name, prompt)
			return "0"
		}
		return m[1]
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		prompt := ""
		if len(req.Messages) == 2 {
			_ = json.Unmarshal(req.Messages[1].Content, &prompt)
		}
		var reply string
		switch calls.Add(1) {
		case 1:
			reply = agentAnswer("open", `{"go_to_url": {"url": "`+site.URL("/learn/site/signin")+`"}}`)
		case 2:
			reply = agentAnswer("sign in", `{"input_text": {"index": `+index(prompt, "Email")+`, "text": "ada@example.com"}}`,
				`{"input_text": {"index": `+index(prompt, "Password")+`, "text": "`+fixtures.LearnPassword+`"}}`,
				`{"click_element": {"index": `+index(prompt, "Sign in")+`}}`)
		case 3:
			reply = agentAnswer("order", `{"input_text": {"index": `+index(prompt, "Full name")+`, "text": "Ada Lovelace"}}`,
				`{"select_option": {"index": `+index(prompt, "Delivery")+`, "option": "Express"}}`,
				`{"click_element": {"index": `+index(prompt, "Gift wrap")+`}}`,
				`{"click_element": {"index": `+index(prompt, "Place order")+`}}`)
		default:
			reply = agentAnswer("done", `{"done": {"result": "ordered", "success": true}}`)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": reply}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// A run_browser_agent run writes the script of what it did and names it in
// its answer; the script holds no password (the model was given it), and a
// script job replays it on the redesigned site with no model call.
func TestAgentRunWritesAScriptAJobReplays(t *testing.T) {
	t.Parallel()
	model, calls := orderModel(t)
	c := learnServer(t, Config{Agent: AgentConfig{LLM: agentloop.OpenAI{BaseURL: model.URL + "/v1", Timeout: callTimeout},
		Loop: agentloop.Config{MaxSteps: 6, RunDir: t.TempDir()}}})
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_browser_agent"
	req.Params.Arguments = map[string]any{"task": "Sign in to the Acme shop and order a gift-wrapped widget for Ada Lovelace, express delivery",
		"add_infos": "email ada@example.com, password " + fixtures.LearnPassword}
	res, err := c.CallTool(testCtx(t), req)
	if err != nil {
		t.Fatal(err)
	}
	text := mcp.GetTextFromContent(res.Content[0])
	m := regexp.MustCompile(`; script: (\S+)\]`).FindStringSubmatch(text)
	if res.IsError || m == nil || calls.Load() != 4 {
		t.Fatalf("the run (%d model calls): %s", calls.Load(), text)
	}
	raw, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	noPassword(t, "the agent's script.json", raw)
	s, err := learned.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if s.Source.From != "agent" || !strings.Contains(s.Source.Task, "gift-wrapped") || len(s.Steps) != 8 || !s.Params["password"].Secret {
		t.Errorf("the agent's script:\n%s", raw)
	}
	before := calls.Load()
	st := replayJob(t, c, "moved", raw, map[string]any{"password": fixtures.LearnPassword, "full_name": "Agent Moved"})
	if st["status"] != "SUCCEEDED" || calls.Load() != before {
		t.Fatalf("the agent's script on the redesign (%d model calls): %v", calls.Load()-before, st)
	}
	if !placedOrder("moved", "Agent Moved") {
		t.Error("no order placed")
	}
}
