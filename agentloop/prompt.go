package agentloop

import (
	_ "embed"
	"strconv"
	"strings"
)

// systemTemplate is seed 000 §3.1's system prompt, verbatim, with its two
// placeholders.
//
//go:embed prompts/system.txt
var systemTemplate string

// SystemPrompt renders the system prompt: seed 000's text with the action
// limit and the Functions list filled in. It is the same at every step of a run.
func SystemPrompt(maxActions int, functions string) string {
	s := strings.TrimSuffix(systemTemplate, "\n")
	s = strings.Replace(s, "{max_actions_per_step}", strconv.Itoa(maxActions), 1)
	return strings.Replace(s, "{default_action_description}", functions, 1)
}
