package agentloop

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// With vision, a step that starts with a dialog open (the last click opened
// it) tells the model so instead of the elements and sends no picture (the
// page cannot be drawn while the dialog holds it); once the model answered
// the dialog, the next step's picture and list are back.
func TestVisionStepWithADialogOpen(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Save</title><button onclick="alert('Saved!')">Save</button><p id=n>draft</p>`)
	}))
	t.Cleanup(srv.Close)
	env := newEnv(t)
	images := func(want int) func(t testing.TB, r *modelReq) {
		return func(t testing.TB, r *modelReq) {
			if len(r.Images) != want {
				t.Errorf("%d images sent, want %d", len(r.Images), want)
			}
		}
	}
	m := newScriptedModel(t,
		turn{reply: answer(Brain{}, `{"go_to_url": {"url": "`+srv.URL+`"}}`)},
		turn{check: images(1), replyFn: func(r *modelReq) string {
			return answer(Brain{}, fmt.Sprintf(`{"click_element": {"index": %d}}`, refOf(t, r.User, "Save")))
		}},
		turn{check: func(t testing.TB, r *modelReq) {
			images(0)(t, r)
			if !strings.Contains(r.User, `alert dialog is open: "Saved!"`) {
				t.Errorf("the step with the dialog open does not say so:\n%s", r.User)
			}
		}, reply: answer(Brain{}, `{"handle_dialog": {"accept": true}}`)},
		turn{check: func(t testing.TB, r *modelReq) {
			images(1)(t, r)
			if !strings.Contains(r.User, "draft") {
				t.Errorf("after the dialog the page's elements are not back:\n%s", r.User)
			}
		}, reply: doneAnswer})
	out, err := Run(testCtx(t), env, m.openAI(), Config{Vision: true, RunDir: runDir(t)}, Task{Task: "save the draft"})
	if err != nil || !out.Success || out.Steps != 4 {
		t.Fatalf("Run = %+v, %v", out, err)
	}
}
