package agentloop

import (
	"strings"
)

const (
	// maxMemory caps the memory the prompt carries, in bytes: the oldest
	// entries go first, so the prompt stays bounded over a long run.
	maxMemory = 1500
	// maxPlan caps the task progress and future plans carried to the next step.
	maxPlan = 600
)

// State is the agent state of seed 000 §2.2.
type State struct {
	StepNumber int    `json:"step_number"`
	MaxSteps   int    `json:"max_steps"`
	Task       string `json:"task"`
	AddInfos   string `json:"add_infos,omitempty"`
	// Memory holds the important contents the model noted, one entry a line.
	Memory       string `json:"memory,omitempty"`
	TaskProgress string `json:"task_progress,omitempty"`
	FuturePlans  string `json:"future_plans,omitempty"`
	// StopRequested is set when the caller cancels the run.
	StopRequested bool `json:"stop_requested,omitempty"`
}

// update carries what the model said into the state: new important contents
// into memory (once each), progress and plans replaced.
func (s *State) update(b Brain) {
	s.TaskProgress = clip(b.TaskProgress, maxPlan)
	s.FuturePlans = clip(b.FuturePlans, maxPlan)
	c := strings.TrimSpace(b.ImportantContents)
	switch strings.ToLower(strings.Trim(c, `'". `)) {
	case "", "none", "null", "n/a", "empty", "nothing":
		return
	}
	if strings.Contains(s.Memory, c) {
		return
	}
	s.Memory += c + "\n"
	for len(s.Memory) > maxMemory {
		i := strings.IndexByte(s.Memory, '\n')
		if i < 0 || i == len(s.Memory)-1 {
			s.Memory = "…" + s.Memory[len(s.Memory)-maxMemory:]
			break
		}
		s.Memory = s.Memory[i+1:]
	}
}

// memoryText is the prompt's Memory section: the important contents, then
// where the task stands.
func (s *State) memoryText() string {
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(s.Memory, "\n"))
	for _, kv := range [][2]string{{"Task progress", s.TaskProgress}, {"Future plans", s.FuturePlans}} {
		if kv[1] == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(kv[0] + ": " + kv[1])
	}
	return b.String()
}

// bestSoFar is what a run that stopped early can still tell the user.
func (s *State) bestSoFar() string {
	m := s.memoryText()
	if m == "" {
		return ""
	}
	return "\nWhat was found so far:\n" + m
}

// clip cuts s to n bytes (on a rune boundary) with an ellipsis.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
