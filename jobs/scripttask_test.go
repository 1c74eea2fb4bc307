package jobs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/learned"
)

// learnOrder runs, through the action catalogue as a session's calls run,
// a sign-in and an order on the learn site as it was learned, each element
// named by a CSS selector of that site, and returns the script it taught.
// It is learned once for the test process: the tests that replay it all
// replay the same script, and each session took a browser context and nine
// actions more.
func learnOrder(t *testing.T) []byte {
	t.Helper()
	learnedOrder.Lock()
	defer learnedOrder.Unlock()
	if learnedOrder.script == nil {
		learnedOrder.script = learnOrderOnce(t)
	}
	return bytes.Clone(learnedOrder.script)
}

// learnedOrder is the script learnOrder learned, once a session taught it.
var learnedOrder struct {
	sync.Mutex
	script []byte
}

func learnOrderOnce(t *testing.T) []byte {
	t.Helper()
	ctx := testCtx(t)
	b, err := cdpclient.Connect(ctx, cdpclient.Options{Endpoint: shared})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	bc, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = bc.Close(context.Background()) }()
	rec := learned.NewRecorder("record", "")
	rec.Redact = bc.Secrets().Redact
	env := &actions.Env{Context: func(context.Context) (*cdpclient.BrowserContext, error) { return bc, nil }, Learn: rec, Secrets: bc.Secrets()}
	for _, c := range []struct {
		name string
		args string
	}{
		{"navigate", `{"url":"` + site.URL("/learn/site/signin") + `"}`},
		{"fill", `{"selector":"#f-email","value":"ada@example.com"}`},
		{"type", `{"selector":"#f-password","text":"` + fixtures.LearnPassword + `"}`},
		{"click", `{"selector":"#f-go"}`},
		{"fill", `{"selector":"#f-name","value":"Ada Lovelace"}`},
		{"fill", `{"selector":"#f-qty","value":"3"}`},
		{"selectOption", `{"selector":"#ship","values":["express"]}`},
		{"click", `{"selector":"#gift"}`},
		{"click", `{"selector":"form button"}`},
	} {
		res, err := actions.ByName(c.name).Run(ctx, env, json.RawMessage(c.args))
		if err != nil || res.Failed() {
			t.Fatalf("%s %s: %v %+v", c.name, c.args, err, res)
		}
	}
	s := rec.Script()
	if s == nil {
		t.Fatal("nothing learned")
	}
	out, err := s.Encode(rec.Redact)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The script a session taught: its steps in durable terms, the password a
// secret param with no value anywhere in the file, what the sign-in led to.
func TestLearnedScriptFromActions(t *testing.T) {
	t.Parallel()
	raw := learnOrder(t)
	noSecret(t, "script.json", raw)
	s, err := learned.Parse(raw)
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	var got []string
	for _, st := range s.Steps {
		got = append(got, st.Intent)
	}
	want := []string{
		"open " + site.URL("/learn/site/signin"),
		`fill "{{email}}" into textbox "Email" near "Sign in to Acme"`,
		`type "{{password}}" into input type=password "Password" near "Sign in to Acme"`,
		`click button "Sign in" near "Sign in to Acme"`,
		`fill "{{full_name}}" into textbox "Full name" near "New order"`,
		`fill "{{quantity}}" into spinbutton "Quantity" near "New order"`,
		`select {{delivery}} in combobox "Delivery" near "New order"`,
		`fill "true" into checkbox "Gift wrap" near "New order"`,
		`click button "Place order" near "New order"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := s.Params["password"]; !p.Secret || p.Default != "" || s.Params["email"].Default != "ada@example.com" || s.Params["delivery"].Default != "express" {
		t.Errorf("params: %+v", s.Params)
	}
	e := s.Steps[3].Expect
	if e == nil || e.URL != site.URL("/learn/site/order") || e.Title != "New order · Acme" || e.Text != "New order" {
		t.Errorf("the sign-in led to %+v", e)
	}
	if e := s.Steps[8].Expect; e == nil || e.URL != site.URL("/learn/site/done") || e.Text != "Order received" {
		t.Errorf("the order led to %+v", e)
	}
}

// noSecret fails when b holds the learn site's password in any common
// encoding.
func noSecret(t *testing.T, what string, b []byte) {
	t.Helper()
	pw := fixtures.LearnPassword
	for _, enc := range []string{pw, strings.ToUpper(pw), strings.ReplaceAll(pw, "-", "%2D"), "aHVudGVyMi1sZWFybmVk", "hunter2\\u002dlearned"} {
		if bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(enc))) {
			t.Errorf("%s holds the password (as %q)", what, enc)
		}
	}
}

// scriptJob submits a script job on the learn site's variant and waits for
// its end.
func scriptJob(t *testing.T, q *testQueue, variant string, script []byte, params map[string]string) (*jobs.Job, jobs.ScriptResult) {
	t.Helper()
	j := q.submit(t, jobs.SubmitRequest{CorrelationID: t.Name() + "-" + variant + "-" + params["full_name"], URL: site.URL("/learn/" + variant + "/signin"),
		Task: jobs.Task{Type: jobs.TaskScript, Script: script, Params: params}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	var res jobs.ScriptResult
	if len(done.Result) > 0 {
		if err := json.Unmarshal(done.Result, &res); err != nil {
			t.Fatalf("result %s: %v", done.Result, err)
		}
	}
	return done, res
}

// ordered reports whether the learn site took the order a job placed.
func ordered(variant, name string) *fixtures.LearnOrder {
	for _, o := range site.LearnOrders() {
		if o.Variant == variant && o.Name == name {
			return &o
		}
	}
	return nil
}

// noModel is an agent whose model fails the test when asked.
func noModel(t *testing.T) (*jobs.LoopAgent, *atomic.Int32) {
	var calls atomic.Int32
	model := chatModel(t, func(n int, _ string) string {
		calls.Add(1)
		t.Errorf("the model was asked (call %d)", n)
		return `{"current_state":{},"action":[{"done":{"text":"no","success":false}}]}`
	})
	return &jobs.LoopAgent{Model: model, Loop: agentloop.Config{MaxSteps: 3, RunDir: t.TempDir()}}, &calls
}

// A script job replays the script on the site it was learned on and on its
// redesign (other ids, classes, field names and layout, a hidden button of
// the same name), with the params given, without asking the model that the
// server has; the password never reaches the store.
func TestScriptJobReplaysAcrossRedesign(t *testing.T) {
	t.Parallel()
	script := learnOrder(t)
	agent, calls := noModel(t)
	q := newQueue(t, jobs.Config{MaxTabs: 2, Agent: agent})
	for _, v := range []string{"site", "moved"} {
		name := "Grace " + v
		done, res := scriptJob(t, q, v, script, map[string]string{"password": fixtures.LearnPassword, "full_name": name})
		if done.State != jobs.Succeeded || res.Report == nil || !res.OK || res.ModelCalls != 0 || res.Steps != 9 {
			t.Fatalf("%s: %s %q %s", v, done.State, done.Error, done.Result)
		}
		o := ordered(v, name)
		if o == nil || o.Email != "ada@example.com" || o.Quantity != "3" || o.Shipping != "express" || !o.Gift {
			t.Errorf("%s: the order %+v", v, o)
		}
		if !strings.Contains(done.FinalURL, "/learn/"+v+"/done?id=") {
			t.Errorf("%s: final URL %s", v, done.FinalURL)
		}
		noSecret(t, "the job's result", done.Result)
	}
	if calls.Load() != 0 {
		t.Errorf("%d model calls", calls.Load())
	}
	noSecret(t, "the job store", storedBytes(t, q))
}

// clickLogIn is a scripted model that clicks the "Log in" button of the
// element list it is shown, then says done.
func clickLogIn(t *testing.T) (*agentloop.OpenAI, *atomic.Int32) {
	var calls atomic.Int32
	button := regexp.MustCompile(`(?m)^(\d+)\[:\]<button[^>]*>Log in</button>`)
	return chatModel(t, func(n int, body string) string {
		calls.Add(1)
		prompt := promptOf(t, body)
		if strings.Contains(prompt, fixtures.LearnPassword) {
			t.Error("the model was shown the password")
		}
		if n == 1 {
			m := button.FindStringSubmatch(prompt)
			if m == nil || !strings.Contains(prompt, `button "Sign in"`) {
				t.Errorf("the first prompt names no Log in button or no step:\n%s", prompt)
				return `{"current_state":{},"action":[{"done":{"text":"no button","success":false}}]}`
			}
			return `{"current_state":{"summary":"click Log in"},"action":[{"click_element":{"index":` + m[1] + `}}]}`
		}
		return `{"current_state":{},"action":[{"done":{"text":"signed in","success":true}}]}`
	}), &calls
}

// promptOf is the user message of a chat-completions request body.
func promptOf(t *testing.T, body string) string {
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil || len(req.Messages) < 2 {
		t.Errorf("model request: %v", err)
		return ""
	}
	var s string
	if json.Unmarshal(req.Messages[1].Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(req.Messages[1].Content, &parts)
	for _, p := range parts {
		s += p.Text
	}
	return s
}

// On the site whose sign-in button was renamed, the step that clicks it
// finds no "Sign in" button: with a model, the agent redoes that one step
// (two model calls), the job succeeds and leaves the updated script, which
// then replays there without the model; without one, the job fails naming
// the step, what it looked for and what it found.
func TestScriptJobRenamedButton(t *testing.T) {
	t.Parallel()
	script := learnOrder(t)
	// The two runs share nothing but the script: side by side.
	t.Run("with a model, then replayed", func(t *testing.T) {
		t.Parallel()
		model, calls := clickLogIn(t)
		q := newQueue(t, jobs.Config{MaxTabs: 2, Agent: &jobs.LoopAgent{Model: model, Loop: agentloop.Config{MaxSteps: 10, RunDir: t.TempDir()}}})
		done, res := scriptJob(t, q, "renamed", script, map[string]string{"password": fixtures.LearnPassword, "full_name": "Redo One"})
		if done.State != jobs.Succeeded || res.Report == nil || res.ModelCalls != 2 || calls.Load() != 2 || len(res.Repaired) != 1 {
			t.Fatalf("%s %q %s (model calls %d)", done.State, done.Error, done.Result, calls.Load())
		}
		ch := res.Repaired[0]
		if ch.Step != 4 || !strings.Contains(ch.Was, `button "Sign in"`) || len(ch.Now) != 1 || !strings.Contains(ch.Now[0], `click button "Log in"`) {
			t.Errorf("change: %+v", ch)
		}
		if ordered("renamed", "Redo One") == nil {
			t.Error("no order placed")
		}
		updated, err := os.ReadFile(res.Script)
		if err != nil {
			t.Fatalf("the updated script: %v (%s)", err, done.Result)
		}
		noSecret(t, "the updated script", updated)
		if _, err := learned.Parse(updated); err != nil || !bytes.Contains(updated, []byte(`"name": "Log in"`)) {
			t.Errorf("updated script (%v):\n%s", err, updated)
		}

		// The updated script needs no model there any more.
		agent, none := noModel(t)
		q2 := newQueue(t, jobs.Config{MaxTabs: 1, Agent: agent})
		if done, res := scriptJob(t, q2, "renamed", updated, map[string]string{"password": fixtures.LearnPassword, "full_name": "Again"}); done.State != jobs.Succeeded || res.ModelCalls != 0 || none.Load() != 0 {
			t.Errorf("the updated script: %s %q %s", done.State, done.Error, done.Result)
		}
	})

	// Without a model the job fails at that step and says why.
	t.Run("without a model", func(t *testing.T) {
		t.Parallel()
		q3 := newQueue(t, jobs.Config{MaxTabs: 1})
		done, res := scriptJob(t, q3, "renamed", script, map[string]string{"password": fixtures.LearnPassword, "full_name": "Nobody"})
		if done.State != jobs.Failed || res.Report == nil || res.Failed == nil || res.Failed.Step != 4 {
			t.Fatalf("without a model: %s %q %s", done.State, done.Error, done.Result)
		}
		for _, w := range []string{`step 4 (click button "Sign in"`, `looked for button "Sign in"`, `<button>Log in</button>`} {
			if !strings.Contains(done.Error, w) {
				t.Errorf("error %q lacks %q", done.Error, w)
			}
		}
		if ordered("renamed", "Nobody") != nil {
			t.Error("an order was placed by a job that failed before it")
		}
	})
}

// A script job's submission is checked: a script, its params, its secrets.
func TestScriptJobSubmitChecks(t *testing.T) {
	t.Parallel()
	script := []byte(`{"format":"cdpmcp-script","version":1,"source":{"from":"record","created":"2026-01-01T00:00:00Z"},
"params":{"password":{"secret":true},"email":{"default":"a@b.c"}},
"steps":[{"action":"navigate","url":"http://127.0.0.1:1/learn/site/signin"},{"action":"fill","target":{"role":"textbox","name":"Email"},"value":"{{email}}"},
{"action":"type","target":{"tag":"input","type":"password","name":"Password"},"value":"{{password}}"}]}`)
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	url := site.URL("/learn/site/signin")
	for _, c := range []struct {
		task jobs.Task
		want string
	}{
		{jobs.Task{Type: jobs.TaskScript}, "needs task.script"},
		{jobs.Task{Type: jobs.TaskScript, Script: json.RawMessage(`{"format":"x"}`)}, "not a learned script"},
		{jobs.Task{Type: jobs.TaskScript, Script: script}, "give the secret param password"},
		{jobs.Task{Type: jobs.TaskScript, Script: script, Params: map[string]string{"password": "pw-12345", "emial": "x"}}, "no param emial"},
		{jobs.Task{Type: jobs.TaskScript, Script: script, Password: "x", Params: map[string]string{"password": "pw-12345"}}, "takes no task.password"},
		{jobs.Task{Type: jobs.TaskScript, Script: json.RawMessage(strings.Replace(string(script), `"version":1`, `"version":9`, 1))}, "newer than this cdpmcp"},
	} {
		_, _, err := q.Submit(testCtx(t), jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: c.task})
		var ie *jobs.InputError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &ie) || ie.Hint == "" {
			t.Errorf("%s: %v, want an input error with %q", c.want, err, c.want)
		}
	}
}

// A script job's secret params are its tenant's secrets, as a login job's
// password is: masked in that tenant's answers, and never in another's, whose
// answers would otherwise tell it whether a guess was right.
func TestScriptSecretsAreTheTenants(t *testing.T) {
	t.Parallel()
	reg := secrets.New()
	q := newQueue(t, jobs.Config{MaxTabs: 1, Browser: cdpclient.Options{Secrets: reg}})
	script := []byte(`{"format":"cdpmcp-script","version":1,"source":{"from":"record","created":"2026-01-01T00:00:00Z"},
"params":{"password":{"secret":true}},
"steps":[{"action":"navigate","url":"http://127.0.0.1:1/learn/site/signin"},
{"action":"type","target":{"tag":"input","type":"password","name":"Password"},"value":"{{password}}"}]}`)
	const pw = "pw-Alice-9f3kQ2xV"
	alice := tenant.With(testCtx(t), "alice")
	j, _, err := q.Submit(alice, jobs.SubmitRequest{CorrelationID: "secret-script", URL: site.URL("/learn/site/signin"),
		Task: jobs.Task{Type: jobs.TaskScript, Script: script, Params: map[string]string{"password": pw}}})
	if err != nil {
		t.Fatal(err)
	}
	text := "the page says " + pw
	if got := reg.Tenant("alice").Redact(text); strings.Contains(got, pw) {
		t.Errorf("alice's answers show her script's secret: %s", got)
	}
	for name, r := range map[string]*secrets.Registry{"bob": reg.Tenant("bob"), "the root": reg} {
		if got := r.Redact(text); got != text {
			t.Errorf("%s's answers mask alice's script secret: %s", name, got)
		}
	}
	if _, err := q.Cancel(alice, j.ID, ""); err != nil && !strings.Contains(err.Error(), "already") {
		t.Logf("cancel: %v", err)
	}
}

// Two buttons named Edit that nothing tells apart: the job clicks neither
// and fails saying so; told apart by the row they sit in, it clicks one.
func TestScriptJobNeverClicksOnAGuess(t *testing.T) {
	t.Parallel()
	script := func(near string) []byte {
		return []byte(`{"format":"cdpmcp-script","version":1,"source":{"from":"record","created":"2026-01-01T00:00:00Z"},"steps":[
{"action":"navigate","url":"http://127.0.0.1:1/learn/site/rows"},
{"action":"click","target":{"role":"button","name":"Edit"` + near + `}}]}`)
	}
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	url := site.URL("/learn/site/rows")
	j := q.submit(t, jobs.SubmitRequest{CorrelationID: "guess", URL: url, Task: jobs.Task{Type: jobs.TaskScript, Script: script("")}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Failed || !strings.Contains(done.Error, `step 2 (click button "Edit")`) || !strings.Contains(done.Error, "2 elements that match, and nothing tells them apart") {
		t.Errorf("two Edit buttons: %s %q", done.State, done.Error)
	}
	j = q.submit(t, jobs.SubmitRequest{CorrelationID: "row", URL: url, Task: jobs.Task{Type: jobs.TaskScript, Script: script(`,"near":"Invoice 1002 Globex"`)}})
	if done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed); done.State != jobs.Succeeded {
		t.Errorf("the Edit button of invoice 1002: %s %q", done.State, done.Error)
	}
}

// A replayed step that happened only in part is where the replay stops: text
// typed with submit into a form the browser's validation refuses is ok for
// a caller (the text is in its field), but not the step the script learned.
func TestScriptJobStopsAtARefusedSubmit(t *testing.T) {
	t.Parallel()
	url := site.URL("/codes/validation.html")
	script := []byte(`{"format":"cdpmcp-script","version":1,"source":{"from":"record","created":"2026-01-01T00:00:00Z"},
"steps":[{"action":"navigate","url":"` + url + `"},
{"action":"type","target":{"tag":"input","type":"email","name":"Email"},"value":"not-an-email","submit":true}]}`)
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{CorrelationID: t.Name(), URL: url, Task: jobs.Task{Type: jobs.TaskScript, Script: script}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Failed || !strings.Contains(done.Error, "step 2") || !strings.Contains(done.Error, "not submitted") {
		t.Fatalf("%s %q %s", done.State, done.Error, done.Result)
	}
	if !strings.HasSuffix(done.FinalURL, "/codes/validation.html") {
		t.Errorf("the invalid form was sent: the job ended at %s", done.FinalURL)
	}
}

// A script whose page the server answers with an error stops there, saying
// so, rather than at the next step, on the error page.
func TestScriptJobStopsAtAnErrorPage(t *testing.T) {
	t.Parallel()
	url := site.URL("/status/404")
	script := []byte(`{"format":"cdpmcp-script","version":1,"source":{"from":"record","created":"2026-01-01T00:00:00Z"},
"steps":[{"action":"navigate","url":"` + url + `"},{"action":"click","target":{"role":"button","name":"Go"}}]}`)
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{CorrelationID: t.Name(), URL: url, Task: jobs.Task{Type: jobs.TaskScript, Script: script}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Failed || !strings.Contains(done.Error, "HTTP 404") || !strings.HasPrefix(done.Error, "NETWORK_ERROR") {
		t.Fatalf("%s %q", done.State, done.Error)
	}
}
