package agentloop

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// seedSystemSHA256 is the SHA-256 of seed 000 §3.1's system prompt, the text
// between its fences plus a newline, as prompts/system.txt holds it.
const seedSystemSHA256 = "88ea4d4ed7ef91d70b5a0329a501fb9bde6eda1cb3101dbc9d161fece7176742"

func TestSystemPromptIsSeedVerbatim(t *testing.T) {
	t.Parallel()
	sum := sha256.Sum256([]byte(systemTemplate))
	if got := hex.EncodeToString(sum[:]); got != seedSystemSHA256 {
		t.Fatalf("prompts/system.txt is not seed 000's text (sha256 %s)", got)
	}
	got := SystemPrompt(7, "FUNCS")
	want := strings.TrimSuffix(systemTemplate, "\n")
	want = strings.Replace(want, "{max_actions_per_step}", "7", 1)
	want = strings.Replace(want, "{default_action_description}", "FUNCS", 1)
	if got != want {
		t.Error("SystemPrompt changes more than the placeholders")
	}
	for _, s := range []string{"   - use maximum 7 actions per sequence\n\nFunctions:\nFUNCS\n\nRemember: Your responses must be valid JSON", `\{action_name\: action_params\}* ` + "\n"} {
		if !strings.Contains(got, s) {
			t.Errorf("system prompt lacks %q", s)
		}
	}
	if strings.Contains(got, "{max_actions_per_step}") || strings.Contains(got, "{default_action_description}") {
		t.Error("a placeholder is left")
	}
}
