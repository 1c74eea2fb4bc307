package agentloop

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A whole task: open a form, fill it in one step, submit, report. Every
// prompt is checked: the system prompt verbatim, the user message's sections in
// order, the previous actions with their results, memory carried.
func TestRunOrdersShirt(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	form := site.URL("/agent/form.html")
	system := SystemPrompt(10, Functions(false, false))
	var steps []string
	m := newScriptedModel(t,
		turn{check: func(t testing.TB, r *modelReq) {
			if r.System != system {
				t.Errorf("system prompt differs:\n%s", cmp.Diff(system, r.System))
			}
			sectionsInOrder(t, r.User, 1, 5, false)
			for _, want := range []string{"1. Task: Order a green T-shirt for Alice. \n", "2. Hints(Optional): \nThe shop is at " + form + "\n", "4. Current url: about:blank\n", "0: (no title) (current)"} {
				if !strings.Contains(r.User, want) {
					t.Errorf("step 1 lacks %q:\n%s", want, r.User)
				}
			}
		}, reply: answer(Brain{PrevActionEvaluation: "Unknown", TaskProgress: "", FuturePlans: "1. Open the shop", Summary: "Open the shop"},
			`{"go_to_url": {"url": "`+form+`"}}`)},
		turn{check: func(t testing.TB, r *modelReq) {
			if r.System != system {
				t.Error("system prompt changed at step 2")
			}
			sectionsInOrder(t, r.User, 2, 5, true)
			for _, want := range []string{
				"4. Current url: " + form + "\n",
				"Previous action 1/1: {\"go_to_url\": {\"url\":\"" + form + "\"}}\n",
				// Where it went is the message's url and tab: not said twice.
				"Result of previous action 1/1: {\"ok\":true}",
				"Future plans: 1. Open the shop",
				"Shirts cost $12.50 each.",
			} {
				if !strings.Contains(r.User, want) {
					t.Errorf("step 2 lacks %q:\n%s", want, r.User)
				}
			}
		}, replyFn: func(r *modelReq) string {
			name, colour, order := refOf(t, r.User, "Name"), refOf(t, r.User, "<select"), refOf(t, r.User, "Order</button>")
			return "Here is my plan:\n```json\n" + answer(Brain{PrevActionEvaluation: "Success - the shop is open", ImportantContents: "Shirts cost $12.50 each",
				TaskProgress: "1. Opened the shop", FuturePlans: "1. Fill in the form 2. Order", Summary: "Fill in the form and order"},
				fmt.Sprintf(`{"input_text": {"index": %d, "text": "Alice"}}`, name),
				fmt.Sprintf(`{"select_option": {"index": %d, "option": "Green"}}`, colour),
				fmt.Sprintf(`{"click_element": {"index": %d}}`, order)) + "\n```\nDone thinking."
		}},
		turn{check: func(t testing.TB, r *modelReq) {
			sectionsInOrder(t, r.User, 3, 5, true)
			for _, want := range []string{
				"3. Memory: \nShirts cost $12.50 each\nTask progress: 1. Opened the shop\n",
				"Previous action 1/3: {\"input_text\": {\"index\":",
				"Result of previous action 1/3: {\"ok\":true",
				"Previous action 2/3: {\"select_option\":",
				`Result of previous action 2/3: {"ok":true,"delta":{"value":"green"`,
				"Previous action 3/3: {\"click_element\":",
				`Result of previous action 3/3: {"ok":true,"delta":{"url":"/echo","title":"Echo"`,
				"[:]# Echo POST",
			} {
				if !strings.Contains(r.User, want) {
					t.Errorf("step 3 lacks %q:\n%s", want, r.User)
				}
			}
		}, reply: answer(Brain{PrevActionEvaluation: "Success", Summary: "Report"}, `{"done": {"result": "Ordered a green T-shirt for Alice ($12.50)."}}`)},
	)
	cfg := Config{MaxSteps: 5, Vision: true, RunDir: runDir(t), OnStep: func(s StepInfo) { steps = append(steps, s.Message) }}
	out, err := Run(testCtx(t), env, m.openAI(), cfg, Task{Task: "Order a green T-shirt for Alice", AddInfos: "The shop is at " + form})
	if err != nil {
		t.Fatal(err)
	}
	want := &Outcome{Result: "Ordered a green T-shirt for Alice ($12.50).", Success: true, Steps: 3, FinalURL: site.URL("/echo"), Stop: StopDone}
	if d := cmp.Diff(want, out, ignoreRunFiles); d != "" {
		t.Errorf("outcome (-want +got):\n%s", d)
	}
	if got := evalOn(t, env, "document.getElementById('out').textContent"); !strings.Contains(got, `name=Alice`) || !strings.Contains(got, "colour=green") {
		t.Errorf("the shop received %s", got)
	}
	if d := cmp.Diff([]string{"step 1/5: Open the shop", "step 2/5: Fill in the form and order", "step 3/5: Report"}, steps); d != "" {
		t.Errorf("progress (-want +got):\n%s", d)
	}
	checkRecord(t, out, 3)
	// What the run did, as a script to replay without a model.
	if s := out.Learned; s == nil || len(s.Steps) != 4 || s.Steps[3].Target == nil || s.Steps[3].Target.Name != "Order" ||
		out.Script != filepath.Join(out.RunDir, "script.json") || s.Params["name"].Default != "Alice" {
		t.Errorf("the learned script %s: %+v", out.Script, s)
	}
}

var ignoreRunFiles = cmpIgnore("RunDir", "Report", "Script", "Learned")

// checkRecord checks a run's directory: a start line, a line a step with its
// screenshot, an end line, and a report showing every step.
func checkRecord(t *testing.T, out *Outcome, steps int) {
	t.Helper()
	if out.Report != filepath.Join(out.RunDir, "report.html") {
		t.Errorf("report %q is not in the run directory %q", out.Report, out.RunDir)
	}
	f, err := os.Open(filepath.Join(out.RunDir, "record.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var types []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var line struct {
			Type       string `json:"type"`
			System     string `json:"system"`
			User       string `json:"user"`
			Answer     string `json:"answer"`
			Screenshot string `json:"screenshot"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		types = append(types, line.Type)
		switch line.Type {
		case "start":
			if !strings.HasPrefix(line.System, "You are a precise browser automation agent") {
				t.Errorf("start record lacks the system prompt")
			}
		case "step":
			if line.User == "" || line.Answer == "" || line.Screenshot == "" {
				t.Errorf("step record lacks prompt, answer or screenshot: %.200s", sc.Text())
			}
			if _, err := os.Stat(filepath.Join(out.RunDir, line.Screenshot)); err != nil {
				t.Error(err)
			}
		}
	}
	want := []string{"start"}
	for range steps {
		want = append(want, "step")
	}
	want = append(want, "end")
	if d := cmp.Diff(want, types); d != "" {
		t.Errorf("record lines (-want +got):\n%s", d)
	}
	html, err := os.ReadFile(out.Report)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), `<img src="data:image/jpeg;base64,`); n != steps {
		t.Errorf("report has %d screenshots, want %d", n, steps)
	}
	if n := strings.Count(string(html), `<section class="step"`); n != steps {
		t.Errorf("report has %d steps, want %d", n, steps)
	}
}
