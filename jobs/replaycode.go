package jobs

import (
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/learned/replay"
)

// replayCodes name the code of a replay's failed step by the words of what
// it found (Failure.Found): the replay's report gives no code, only what the
// step looked for and what there was, in learned/replay's wording and, for
// an action that failed, in the action's own message. The first match wins;
// a step that matches none found the page other than the script knew it
// (no such element, several alike, an outcome not reached): NOT_FOUND.
var replayCodes = []struct {
	words []string
	code  cdpclient.Code
	hint  string
}{
	{[]string{"blocked: ", "read-only mode"}, cdpclient.CodePermission,
		"this server's origin rules (--allowed-origins, --blocked-origins) or --read-only refuse the step: run the script where they allow it, or record it again within them"},
	{[]string{"the step's time ran out", "did not answer in time", "did not finish in time"}, cdpclient.CodeTimeout,
		"the page was slow at that step: submit the job again, with a larger task.timeoutMs if the whole job ran short"},
	{[]string{"the form was not submitted"}, cdpclient.CodeValidation,
		"the page's form refused the value the script typed: check task.params"},
	{[]string{" is disabled", "does not take typed text"}, cdpclient.CodeDisabled, ""},
	{[]string{"which covers the target", "did not take focus"}, cdpclient.CodeObscured, ""},
}

// replayFailure is a replay's failed step as the job's failure, with a code
// that says whose it is rather than cdpmcp's own (INTERNAL): the failed
// action's own code when the report has one, else replayCodes'; and a hint
// for whoever submitted the job.
func replayFailure(f *replay.Failure) error {
	code := cdpclient.CodeNotFound
	hint := "the page no longer matches the script at this step: record the script again, or run the job where the server has a model (--llm-base-url), which redoes such a step"
	if f.Repair != "" {
		hint = "the page no longer matches the script at this step, and the agent could not redo it: record the script again"
	}
	for _, c := range replayCodes {
		if containsAny(f.Found, c.words) {
			code = c.code
			if c.hint != "" {
				hint = c.hint
			}
			break
		}
	}
	if own := cdpclient.Code(f.Code); own != cdpclient.CodeOK && own != cdpclient.CodeInternal && own != code {
		code = own // the action's own word; the hint stays the script's
	}
	return &cdpclient.Error{Code: code, Msg: f.Error(), Hint: hint, Err: f}
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
