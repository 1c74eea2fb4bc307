package agentloop

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseOutput(t *testing.T) {
	t.Parallel()
	click := Call{Name: "click_element", Args: json.RawMessage(`{"index": 3}`)}
	tests := []struct {
		name, in string
		want     *Output
	}{
		{"seed 000", `{"current_state": {"prev_action_evaluation": "Success", "important_contents": "price $5", "task_progress": "1. a", "future_plans": "2. b", "thought": "t", "summary": "s"}, "action": [{"click_element": {"index": 3}}]}`,
			&Output{Brain: Brain{PrevActionEvaluation: "Success", ImportantContents: "price $5", TaskProgress: "1. a", FuturePlans: "2. b", Thought: "t", Summary: "s"}, Actions: []Call{click}}},
		{"seed 001 names", `{"current_state": {"page_summary": "p", "evaluation_previous_goal": "Failed", "memory": "m", "next_goal": "n"}, "action": [{"click_element": {"index": 3}}]}`,
			&Output{Brain: Brain{PrevActionEvaluation: "Failed", ImportantContents: "p", TaskProgress: "m", FuturePlans: "n"}, Actions: []Call{click}}},
		{"fenced with prose", "Let me think.\n```json\n{\"current_state\": {}, \"action\": [{\"click_element\": {\"index\": 3}}]}\n```\nThat is all.",
			&Output{Actions: []Call{click}}},
		{"after a think block", "<think>Maybe {\"action\": [{\"go_back\": {}}]}? No.</think>\n{\"action\": [{\"click_element\": {\"index\": 3}}]}",
			&Output{Actions: []Call{click}}},
		{"prose braces before", `I use {braces} a lot. {"action": [{"click_element": {"index": 3}}]}`,
			&Output{Actions: []Call{click}}},
		{"trailing commas and comments", "{\"action\": [ // click it\n {\"click_element\": {\"index\": 3,},}, /* more */ ],}",
			&Output{Actions: []Call{{Name: "click_element", Args: json.RawMessage(`{"index": 3}`)}}}},
		{"one object, not a list", `{"action": {"click_element": {"index": 3}}}`, &Output{Actions: []Call{click}}},
		{"several in one object, in order", `{"action": [{"input_text": {"index": 1, "text": "a"}, "click_element": {"index": 3}}]}`,
			&Output{Actions: []Call{{Name: "input_text", Args: json.RawMessage(`{"index": 1, "text": "a"}`)}, click}}},
		{"named form", `{"action": [{"name": "click_element", "params": {"index": 3}}]}`, &Output{Actions: []Call{click}}},
		{"actions key", `{"actions": [{"done": {}}]}`, &Output{Actions: []Call{{Name: "done", Args: json.RawMessage(`{}`)}}}},
		{"list-valued fields", `{"current_state": {"task_progress": ["1. a", "2. b"], "important_contents": null}, "action": []}`,
			&Output{Brain: Brain{TaskProgress: "1. a\n2. b"}}},
		{"brain without current_state", `{"thought": "x", "action": [{"done": {}}]}`,
			&Output{Brain: Brain{Thought: "x"}, Actions: []Call{{Name: "done", Args: json.RawMessage(`{}`)}}}},
	}
	for _, tc := range tests {
		got, err := ParseOutput(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if d := cmp.Diff(tc.want, got, cmp.Transformer("compact", compactRaw)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
	for _, bad := range []string{"", "I clicked it.", `{"current_state": {}}`, `{"action": "click"}`, `{"action": [1, 2]}`, "{\"action\": [", `["click"]`} {
		if _, err := ParseOutput(bad); !errors.Is(err, ErrBadAnswer) {
			t.Errorf("ParseOutput(%q) = %v, want ErrBadAnswer", bad, err)
		}
	}
}

func compactRaw(r json.RawMessage) string {
	s, err := compactJSON(r)
	if err != nil {
		return string(r)
	}
	return s
}

// FuzzParseOutput: any text a model sends is read or refused with
// ErrBadAnswer, never a panic; what is read has named actions with object or
// scalar arguments.
func FuzzParseOutput(f *testing.F) {
	for _, s := range []string{
		`{"current_state": {"summary": "s"}, "action": [{"click_element": {"index": 3}}]}`,
		"```json\n{\"action\": [{\"done\": {\"result\": \"x\"}},]}\n```",
		`{"action": {"a": 1, "b": [2]}}`, `{"action": [{"name": "x", "args": null}]}`, `{{{"action":[}`, "{\"a\":\"\\\"}\"}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := ParseOutput(s)
		if err != nil {
			if !errors.Is(err, ErrBadAnswer) {
				t.Fatalf("error %v is not ErrBadAnswer", err)
			}
			return
		}
		for _, c := range out.Actions {
			if len(c.Args) > 0 && !json.Valid(c.Args) {
				t.Fatalf("action %q has invalid arguments %q", c.Name, c.Args)
			}
		}
	})
}
