package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cdpmcp/cdpmcp/fixtures"
)

// scriptReport is what cdpmcp script run prints.
type scriptReport struct {
	OK         bool   `json:"ok"`
	Steps      int    `json:"steps"`
	ModelCalls int    `json:"modelCalls"`
	Script     string `json:"script"`
	Failed     *struct {
		Step   int    `json:"step"`
		Looked string `json:"lookedFor"`
		Found  string `json:"found"`
	} `json:"failed"`
}

// logInModel is a chat-completions endpoint that clicks the "Log in" button
// of the element list it is shown, then says done.
func logInModel(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	button := regexp.MustCompile(`(\d+)\[:\]<button[^>]*>Log in</button>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req chatRequest
		_ = json.Unmarshal(body, &req)
		prompt := ""
		if len(req.Messages) == 2 {
			_ = json.Unmarshal(req.Messages[1].Content, &prompt)
		}
		reply := `{"current_state":{},"action":[{"done":{"text":"signed in","success":true}}]}`
		if calls.Add(1) == 1 {
			m := button.FindStringSubmatch(prompt)
			if m == nil {
				t.Errorf("no Log in button in the prompt:\n%s", prompt)
				m = []string{"", "0"}
			}
			reply = `{"current_state":{},"action":[{"click_element":{"index":` + m[1] + `}}]}`
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": reply}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// cdpmcp script run replays a learned script from the shell: on the site's
// redesign with 0 model calls (exit 0), on the site whose button was renamed
// without a model (exit 1, naming the step) and with one (the agent redoes
// the step, the updated script is written beside it); the password, given
// through the environment, is in no output. script export writes the
// Playwright test.
func TestScriptRunFromTheShell(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	script := filepath.Join(tmp, "order.json")
	b, err := os.ReadFile(filepath.Join("..", "..", "learned", "testdata", "order.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, b, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"SHOP_PASSWORD=" + fixtures.LearnPassword}
	run := func(variant, name string, more ...string) (cliRun, scriptReport) {
		args := append([]string{"script", "run", script, "--headless", "--browser-arg=" + newMarker("script"),
			"--url", site.URL("/learn/" + variant + "/signin"), "--param-env", "password=SHOP_PASSWORD", "--param", "full_name=" + name}, more...)
		r := runCLIEnv(t, tmp, env, args...)
		var rep scriptReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%s: stdout is no report (%v)\nstdout: %s\nstderr: %s", variant, err, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, fixtures.LearnPassword) {
			t.Errorf("%s: the password is in the output", variant)
		}
		return r, rep
	}
	r, rep := run("moved", "Shell Moved")
	if r.code != 0 || !rep.OK || rep.Steps != 9 || rep.ModelCalls != 0 {
		t.Fatalf("moved: exit %d, %+v\nstderr: %s", r.code, rep, r.stderr)
	}
	if !placed("moved", "Shell Moved") {
		t.Error("moved: no order placed")
	}

	r, rep = run("renamed", "Shell Nobody")
	if r.code != 1 || rep.OK || rep.Failed == nil || rep.Failed.Step != 4 || !strings.Contains(rep.Failed.Found, "<button>Log in</button>") ||
		!strings.Contains(r.stderr, `step 4 (click button "Sign in"`) {
		t.Errorf("renamed without a model: exit %d, %+v\nstderr: %s", r.code, rep, r.stderr)
	}

	// In read-only mode nothing is acted on: the first step that would act
	// fails, and the agent is not asked.
	r, rep = run("moved", "Shell Read-only", "--read-only")
	if r.code != 1 || rep.Failed == nil || rep.Failed.Step != 2 || !strings.Contains(rep.Failed.Found, "read-only mode refused") || placed("moved", "Shell Read-only") {
		t.Errorf("read-only: exit %d, %+v\nstderr: %s", r.code, rep, r.stderr)
	}

	model, calls := logInModel(t)
	r, rep = run("renamed", "Shell Redo", "--llm-base-url", model.URL+"/v1", "--llm-model", "scripted", "--agent-vision=false")
	if r.code != 0 || !rep.OK || rep.ModelCalls != 2 || calls.Load() != 2 || rep.Script != strings.TrimSuffix(script, ".json")+".updated.json" {
		t.Fatalf("renamed with a model: exit %d, %+v (%d calls)\nstderr: %s", r.code, rep, calls.Load(), r.stderr)
	}
	updated, err := os.ReadFile(rep.Script)
	if err != nil || !strings.Contains(string(updated), `"name": "Log in"`) || strings.Contains(string(updated), fixtures.LearnPassword) {
		t.Errorf("the updated script (%v):\n%s", err, updated)
	}
	if !placed("renamed", "Shell Redo") {
		t.Error("renamed: no order placed")
	}

	spec := filepath.Join(tmp, "learned.spec.ts")
	if r := runCLI(t, tmp, "script", "export", "--format", "playwright", script, "--out", spec); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.stderr)
	}
	if text, err := os.ReadFile(spec); err != nil || !strings.Contains(string(text), `page.getByRole("button", { name: "Sign in", exact: true }).click()`) {
		t.Errorf("the exported test (%v):\n%s", err, text)
	}
	if r := runCLI(t, tmp, "script", "run", filepath.Join(tmp, "none.json")); r.code != 2 || !strings.Contains(r.stderr, "none.json") {
		t.Errorf("a missing script: exit %d: %s", r.code, r.stderr)
	}
}

func placed(variant, name string) bool {
	for _, o := range site.LearnOrders() {
		if o.Variant == variant && o.Name == name {
			return true
		}
	}
	return false
}
