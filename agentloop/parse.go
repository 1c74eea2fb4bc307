package agentloop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Brain is the model's assessment of the step (seed 000 §2.2's Agent Brain).
type Brain struct {
	PrevActionEvaluation string `json:"prev_action_evaluation,omitempty"`
	ImportantContents    string `json:"important_contents,omitempty"`
	TaskProgress         string `json:"task_progress,omitempty"`
	FuturePlans          string `json:"future_plans,omitempty"`
	Thought              string `json:"thought,omitempty"`
	Summary              string `json:"summary,omitempty"`
}

// Call is one action the model asked for: its name and its arguments (a JSON
// object, or null).
type Call struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Output is a parsed model answer (seed 000 §2.2's Agent Output).
type Output struct {
	Brain   Brain  `json:"current_state"`
	Actions []Call `json:"action"`
}

// maxAnswerBytes is as much of an answer as is searched for its JSON.
const maxAnswerBytes = 256 << 10

// ErrBadAnswer is an answer that holds no usable JSON in seed 000's format.
var ErrBadAnswer = errors.New("the answer is not valid JSON in the RESPONSE FORMAT")

// brainAliases maps the field names of seeds 000 and 001 onto Brain's.
var brainAliases = map[string]string{
	"prev_action_evaluation":   "prev_action_evaluation",
	"evaluation_previous_goal": "prev_action_evaluation",
	"important_contents":       "important_contents",
	"page_summary":             "important_contents",
	"task_progress":            "task_progress",
	"memory":                   "task_progress",
	"future_plans":             "future_plans",
	"next_goal":                "future_plans",
	"thought":                  "thought",
	"summary":                  "summary",
}

// ParseOutput reads a model's answer leniently: the JSON may follow a
// reasoning model's <think> block, sit in a code fence or among prose, carry trailing commas or comments, use seed 001's field
// names, give one action object instead of a list, or put several actions in
// one object.
func ParseOutput(text string) (*Output, error) {
	if i := strings.LastIndex(text, "</think>"); i >= 0 {
		text = text[i+len("</think>"):] // a reasoning model's thoughts may hold JSON-like drafts
	}
	if len(text) > maxAnswerBytes {
		text = text[:maxAnswerBytes] // a real answer is a few kB; this bounds the search
	}
	obj, err := findObject(text)
	if err != nil {
		return nil, err
	}
	var out Output
	state := obj
	if raw, ok := obj["current_state"]; ok {
		if err := json.Unmarshal(raw, &state); err != nil {
			state = nil
		}
	}
	fields := map[string]*string{
		"prev_action_evaluation": &out.Brain.PrevActionEvaluation,
		"important_contents":     &out.Brain.ImportantContents,
		"task_progress":          &out.Brain.TaskProgress,
		"future_plans":           &out.Brain.FuturePlans,
		"thought":                &out.Brain.Thought,
		"summary":                &out.Brain.Summary,
	}
	for k, raw := range state {
		if to, ok := brainAliases[k]; ok && *fields[to] == "" {
			*fields[to] = asText(raw)
		}
	}
	raw, ok := obj["action"]
	if !ok {
		raw, ok = obj["actions"]
	}
	if !ok {
		return nil, fmt.Errorf("%w: it has no \"action\" list", ErrBadAnswer)
	}
	if out.Actions, err = parseActions(raw); err != nil {
		return nil, err
	}
	return &out, nil
}

// findObject returns the first JSON object in text that looks like an answer
// (has "action" or "current_state"), else the first object at all.
func findObject(text string) (map[string]json.RawMessage, error) {
	var first map[string]json.RawMessage
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		end := matchBrace(text, i)
		if end < 0 {
			break // unbalanced from here on: nothing later can close either
		}
		obj := decodeObject(text[i : end+1])
		if obj == nil {
			continue
		}
		if _, ok := obj["action"]; ok {
			return obj, nil
		}
		if _, ok := obj["actions"]; ok {
			return obj, nil
		}
		if _, ok := obj["current_state"]; ok {
			return obj, nil
		}
		if first == nil {
			first = obj
		}
		i = end
	}
	if first != nil {
		return first, nil
	}
	return nil, fmt.Errorf("%w: no JSON object found", ErrBadAnswer)
}

// parseActions reads the action list: a list of {"name": args} objects (an
// object with several names gives several actions, in order), one such object,
// or {"name": "x", "args"|"params"|"parameters": {...}} items.
func parseActions(raw json.RawMessage) ([]Call, error) {
	raw = bytes.TrimSpace(raw)
	var items []json.RawMessage
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, nil
	case raw[0] == '[':
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("%w: \"action\" is not a list of objects", ErrBadAnswer)
		}
	case raw[0] == '{':
		items = []json.RawMessage{raw}
	default:
		return nil, fmt.Errorf("%w: \"action\" must be a list like [{\"click_element\": {\"index\": 3}}]", ErrBadAnswer)
	}
	var calls []Call
	for _, item := range items {
		keys, vals, err := orderedObject(item)
		if err != nil {
			return nil, fmt.Errorf("%w: each action must be an object like {\"click_element\": {\"index\": 3}}", ErrBadAnswer)
		}
		if c, ok := namedCall(keys, vals); ok {
			calls = append(calls, c)
			continue
		}
		for i, k := range keys {
			calls = append(calls, Call{Name: k, Args: vals[i]})
		}
	}
	return calls, nil
}

// namedCall reads the {"name": "x", "args": {...}} form.
func namedCall(keys []string, vals []json.RawMessage) (Call, bool) {
	var c Call
	for i, k := range keys {
		switch k {
		case "name", "action", "action_name":
			if json.Unmarshal(vals[i], &c.Name) != nil {
				return Call{}, false
			}
		case "args", "params", "parameters", "arguments", "action_params":
			c.Args = vals[i]
		default:
			return Call{}, false
		}
	}
	return c, c.Name != ""
}

// orderedObject decodes an object's keys and raw values in document order.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("not an object")
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	return keys, vals, nil
}

// asText renders a brain field as text: strings as they are, lists one item a
// line, anything else as JSON.
func asText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, 0, len(list))
		for _, item := range list {
			parts = append(parts, asText(item))
		}
		return strings.Join(parts, "\n")
	}
	if string(bytes.TrimSpace(raw)) == "null" {
		return ""
	}
	return string(bytes.TrimSpace(raw))
}
