package agentloop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// userMessage renders seed 000 §3.2's user message: the step, the time, the
// task and hints, the memory, the page, and what the previous step's actions
// gave. The screenshot, when there is one, travels beside it.
func userMessage(st *State, now time.Time, obs *observation, prev *prevStep) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Current step: %d/%d\n", st.StepNumber, st.MaxSteps)
	fmt.Fprintf(&b, "Current date and time: %s\n", now.Format("2006-01-02 15:04"))
	fmt.Fprintf(&b, "1. Task: %s. \n", st.Task)
	fmt.Fprintf(&b, "2. Hints(Optional): \n%s\n", st.AddInfos)
	fmt.Fprintf(&b, "3. Memory: \n%s\n", st.memoryText())
	fmt.Fprintf(&b, "4. Current url: %s\n", obs.url)
	fmt.Fprintf(&b, "5. Available tabs:\n%s\n", obs.tabs)
	fmt.Fprintf(&b, "6. Interactive elements:\n%s\n", obs.elements)
	if prev != nil {
		b.WriteString("\n**Previous Actions**\n")
		fmt.Fprintf(&b, "Previous step: %d/%d\n", st.StepNumber-1, st.MaxSteps)
		n := len(prev.actions)
		for i, a := range prev.actions {
			fmt.Fprintf(&b, "Previous action %d/%d: %s\n", i+1, n, actionJSON(a))
			if a.Result != "" {
				fmt.Fprintf(&b, "Result of previous action %d/%d: %s\n", i+1, n, a.Result)
			}
			if a.Error != "" {
				fmt.Fprintf(&b, "Error of previous action %d/%d: %s\n", i+1, n, a.Error)
			}
		}
		if prev.note != "" {
			b.WriteString(prev.note + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// prevStep is what the next prompt reports of a step.
type prevStep struct {
	actions []ActionRecord
	// note says what did not run, and why.
	note string
}

func (p *prevStep) addNote(s string) {
	if p.note != "" {
		p.note += "\n"
	}
	p.note += s
}

// actionJSON renders an action as the model wrote it: {"name": args}.
func actionJSON(a ActionRecord) string {
	if a.Name == "" {
		return "(none: the answer could not be used)"
	}
	args := a.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	name, _ := json.Marshal(a.Name)
	compact, err := compactJSON(args)
	if err != nil {
		compact = string(args)
	}
	return "{" + string(name) + ": " + compact + "}"
}

func compactJSON(raw json.RawMessage) (string, error) {
	var b bytes.Buffer
	err := json.Compact(&b, raw)
	return b.String(), err
}

// marshal encodes v compactly without escaping HTML characters, which the
// element snippets in feedback are full of.
func marshal(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
