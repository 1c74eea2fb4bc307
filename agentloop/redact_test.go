package agentloop

import (
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// A page that shows a secret (a --secret-env value echoed back, as a form
// that repeats what it got does) does not hand it to the model: the prompt is
// redacted as a tool's answer is, and the model still reads the rest.
func TestPromptsHideSecrets(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	const secret = "hunter2-Qx7vLp9wZr"
	reg := secrets.New()
	reg.Add(secret)
	env.Secrets = reg
	echo := site.URL("/echo?token=" + secret + "&name=Alice")
	m := newScriptedModel(t,
		turn{reply: answer(Brain{Summary: "Open the echo"}, `{"go_to_url": {"url": "`+echo+`"}}`)},
		turn{check: func(t testing.TB, r *modelReq) {
			if strings.Contains(r.User, secret) || strings.Contains(r.System, secret) {
				t.Errorf("the model was sent the secret:\n%s", r.User)
			}
			for _, want := range []string{"name=Alice", "token=" + secrets.Mask} {
				if !strings.Contains(r.User, want) {
					t.Errorf("step 2 lacks %q:\n%s", want, r.User)
				}
			}
		}, reply: answer(Brain{Summary: "Report"}, `{"done": {"result": "read it"}}`)},
	)
	out, err := Run(testCtx(t), env, m.openAI(), Config{MaxSteps: 3, RunDir: runDir(t)}, Task{Task: "Read the echo"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Success || len(m.requests()) != 2 {
		t.Errorf("outcome %+v after %d model calls", out, len(m.requests()))
	}
}
