package agentloop

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// Bad answers, an index not in the list and an unknown action count as failed
// steps, each explained in the next prompt; a good step resets the count, and
// the run stops at the limit.
func TestFailuresCountedAndExplained(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	page := site.URL("/agent/actions.html")
	expect := func(want ...string) func(t testing.TB, r *modelReq) {
		return func(t testing.TB, r *modelReq) {
			for _, w := range want {
				if !strings.Contains(r.User, w) {
					t.Errorf("prompt lacks %q:\n%s", w, r.User[strings.Index(r.User, "**Previous Actions**"):])
				}
			}
		}
	}
	m := newScriptedModel(t,
		turn{reply: "I will click the button now."},
		turn{check: expect("Previous action 1/1: (none: the answer could not be used)\n",
			"Error of previous action 1/1: the answer is not valid JSON in the RESPONSE FORMAT: no JSON object found. Answer with one JSON object"),
			// Seed 001's field names, a fence and prose around it: read.
			reply: "Sure.\n```json\n" + `{"current_state": {"evaluation_previous_goal": "Failed", "page_summary": "Count is 0", "memory": "nothing yet", "next_goal": "open the page"},` +
				`"action": [{"go_to_url": {"url": "` + page + `"}},]}` + "\n```"},
		turn{check: expect("Count is 0\nTask progress: nothing yet\nFuture plans: open the page", `Result of previous action 1/1: {"ok":true`),
			reply: answer(Brain{}, `{"click_element": {"index": 999}}`)},
		turn{check: expect("Error of previous action 1/1: element index 999 is not in the Interactive elements list"),
			reply: answer(Brain{}, `{"fly_to_the_moon": {}}`)},
		turn{check: expect(`Error of previous action 1/1: unknown action "fly_to_the_moon"; use one of: go_to_url, open_tab`),
			reply: answer(Brain{}, `{"click_element": {}}`)},
	)
	out, err := Run(testCtx(t), env, m.openAI(), Config{MaxFailures: 3, RunDir: runDir(t)}, Task{Task: "count"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != StopMaxFailures || out.Success || out.Steps != 5 {
		t.Errorf("outcome %+v", out)
	}
	for _, want := range []string{"3 failed steps in a row", `argument "index" is required`} {
		if !strings.Contains(out.Reason, want) {
			t.Errorf("reason %q lacks %q", out.Reason, want)
		}
	}
	if !strings.Contains(out.Result, "Count is 0") {
		t.Errorf("result %q lacks the memory", out.Result)
	}
}

// At the step limit the run stops with the best answer so far.
func TestStepLimitGivesBestAnswer(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	page := site.URL("/agent/list.html")
	m := newScriptedModel(t,
		turn{reply: answer(Brain{Summary: "open"}, `{"go_to_url": {"url": "`+page+`"}}`)},
		turn{reply: answer(Brain{ImportantContents: "Invoice 1002: Globex $125.00", TaskProgress: "1. Found 1002"}, `{"scroll": {"direction": "down"}}`)},
		turn{reply: answer(Brain{ImportantContents: "Invoice 1004: Umbrella $310.10"}, `{"scroll": {"direction": "up"}}`)},
	)
	out, err := Run(testCtx(t), env, m.openAI(), Config{MaxSteps: 3, RunDir: runDir(t)}, Task{Task: "list invoices over $100"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != StopMaxSteps || out.Success || out.Steps != 3 || out.FinalURL != page {
		t.Errorf("outcome %+v", out)
	}
	for _, want := range []string{"not done within 3 steps", "Invoice 1002: Globex $125.00\nInvoice 1004: Umbrella $310.10"} {
		if !strings.Contains(out.Result, want) {
			t.Errorf("result lacks %q:\n%s", want, out.Result)
		}
	}
}

// A sequence stops when the page changes (new elements) and goes on when
// content only disappears or text changes; more actions than allowed are cut.
func TestSequenceStopsWhenPageChanges(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	page := site.URL("/agent/actions.html")
	var inc int
	m := newScriptedModel(t,
		turn{reply: answer(Brain{}, `{"go_to_url": {"url": "`+page+`"}}`, `{"click_element": {"index": 1}}`)},
		turn{check: func(t testing.TB, r *modelReq) {
			if !strings.Contains(r.User, "The 1 action(s) after action 1 did not run: the page changed.") {
				t.Errorf("no note on the actions left out:\n%s", r.User)
			}
		}, replyFn: func(r *modelReq) string {
			if !strings.Contains(r.User, "Loaded late") {
				// The page's late text (400 ms after its load) comes
				// before the clicks, not between a press and its release:
				// a release the page moved away from is no click (the
				// first event of a click decides, as for a person's hand).
				time.Sleep(600 * time.Millisecond)
			}
			inc = refOf(t, r.User, "Increment")
			hide, suggest := refOf(t, r.User, "Hide the note"), refOf(t, r.User, "Show suggestions")
			return answer(Brain{}, click(hide), click(inc), click(suggest), click(inc), click(inc))
		}},
		turn{check: func(t testing.TB, r *modelReq) {
			for _, want := range []string{"Previous action 3/3: {\"click_element\"", `"removed":[`, `"added":[[`, "Berlin",
				"Only the first 4 actions ran (use maximum 4 actions per sequence).\nThe 1 action(s) after action 3 did not run: the page changed."} {
				if !strings.Contains(r.User, want) {
					t.Errorf("step 3 prompt lacks %q:\n%s", want, r.User)
				}
			}
			if strings.Contains(r.User, "This note can be hidden") {
				t.Error("the hidden note is still listed")
			}
		}, replyFn: func(*modelReq) string { return answer(Brain{}, click(inc), click(inc), click(inc)) }},
		turn{check: func(t testing.TB, r *modelReq) {
			if strings.Contains(r.User, "did not run") || strings.Count(r.User, "Result of previous action") != 3 {
				t.Errorf("text changes stopped the sequence:\n%s", r.User)
			}
		}, reply: answer(Brain{}, `{"done": {"result": "counted"}}`)},
	)
	out, err := Run(testCtx(t), env, m.openAI(), Config{MaxActions: 4, RunDir: runDir(t)}, Task{Task: "count"})
	if err != nil || !out.Success {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	if got := evalOn(t, env, "document.getElementById('count').textContent"); got != `"4"` {
		t.Errorf("count = %s, want 4 (1 before the suggestions, 3 in the next step)", got)
	}
}

func click(n int) string { return `{"click_element": {"index": ` + strconv.Itoa(n) + `}}` }
