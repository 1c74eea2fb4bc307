package replay

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/locate"
	"github.com/cdpmcp/cdpmcp/learned"
)

// The agent is asked for the one step, with what the replay found, and
// never given a value a field takes: for a fill it only points at the
// field; a select's option (no secret) is named.
func TestRepairTask(t *testing.T) {
	s := &learned.Script{Params: map[string]learned.Param{"password": {Secret: true}, "delivery": {Default: "express"}}}
	v := learned.Values{"password": "pw-SECRET-1", "delivery": "express"}
	pw := learned.Step{Action: learned.Type, Target: &locate.Description{Tag: "input", Type: "password", Name: "Password"}, Value: "{{password}}"}
	task := repairTask(pw, s, v, &mismatch{looked: `input type=password "Password"`, found: "no such element"})
	for _, want := range []string{"ONE step", `Click once into the field that takes this value now (it was input type=password "Password")`, "type nothing", "found no such element"} {
		if !strings.Contains(task, want) {
			t.Errorf("the fill's task lacks %q:\n%s", want, task)
		}
	}
	if strings.Contains(task, "pw-SECRET-1") {
		t.Errorf("the task holds the secret:\n%s", task)
	}
	sel := learned.Step{Action: learned.Select, Target: &locate.Description{Role: "combobox", Name: "Delivery"}, Values: []string{"{{delivery}}"}}
	task = repairTask(sel, s, v, &mismatch{looked: "the address …/done", found: "the address …/order", acted: true})
	if !strings.Contains(task, `select express in combobox "Delivery"`) || !strings.Contains(task, "It was done, but it should have led to the address …/done") {
		t.Errorf("the select's task:\n%s", task)
	}
}

func TestSameTitle(t *testing.T) {
	for _, c := range []struct {
		want, got string
		same      bool
	}{
		{"Order #17 · Acme", "order #4821  · acme", true},
		{"New order · Acme", "Order received · Acme", false},
	} {
		if sameTitle(c.want, c.got) != c.same {
			t.Errorf("sameTitle(%q, %q) = %t", c.want, c.got, !c.same)
		}
	}
}

// What a replay says it found instead of the one element.
func TestFoundText(t *testing.T) {
	if got := foundText(&locate.NoMatchError{Count: 2, Found: []string{"<button>Edit</button>", "<button>Edit</button>"}, More: 1}); got != "2 elements that match, and nothing tells them apart: <button>Edit</button>, <button>Edit</button> and 1 more" {
		t.Error(got)
	}
	if got := foundText(&locate.NoMatchError{}); got != "no such element, and none of its kind" {
		t.Error(got)
	}
}

// A step the agent's repair brings keeps this run's values out of its check:
// they become the script's params there, so a later run checks for its own.
func TestAdoptTemplatesTheRunsValues(t *testing.T) {
	r := &replayer{v: learned.Values{"query": "teapot"}, script: &learned.Script{Params: map[string]learned.Param{"query": {Default: "kettle"}}}}
	agent := &learned.Script{Steps: []learned.Step{{Action: learned.Click, Expect: &learned.Expect{Text: "Results for teapot"}}}}
	steps, err := r.adopt(agent, "http://x/", learned.Step{Action: learned.Click})
	if err != nil || len(steps) != 1 || steps[0].Expect == nil || steps[0].Expect.Text != "Results for {{query}}" {
		t.Fatalf("adopt = %+v, %v", steps, err)
	}
}
