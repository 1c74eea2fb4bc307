package agentloop

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// paintPage turns the whole page red when its button is clicked.
const paintPage = `<!doctype html><title>Paint</title>
<style>html,body{margin:0;height:100%;background:#fff}</style>
<button onclick="document.body.style.background='#f00';document.documentElement.style.background='#f00'">Paint</button>`

// The record's screenshot of a step shows the page the model saw, not what
// the step's actions made of it, even when the model answers at once and the
// actions come while the picture is being taken; and the step's record,
// written beside the next step, has it.
func TestRecordShowsThePageTheModelSaw(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, paintPage)
	}))
	t.Cleanup(srv.Close)
	for _, vision := range []bool{false, true} {
		env := newEnv(t)
		m := newScriptedModel(t,
			turn{reply: answer(Brain{}, `{"go_to_url": {"url": "`+srv.URL+`"}}`)},
			turn{replyFn: func(r *modelReq) string {
				return answer(Brain{}, fmt.Sprintf(`{"click_element": {"index": %d}}`, refOf(t, r.User, "Paint")))
			}},
			turn{reply: doneAnswer})
		out, err := Run(testCtx(t), env, m.openAI(), Config{Vision: vision, RunDir: runDir(t)}, Task{Task: "paint the page"})
		if err != nil || !out.Success {
			t.Fatalf("Run = %+v, %v", out, err)
		}
		checkRecord(t, out, 3)
		steps := readSteps(t, out)
		for i, wantRed := range []bool{false, false, true} {
			if red := redPage(t, filepath.Join(out.RunDir, steps[i].Screenshot)); red != wantRed {
				t.Errorf("vision %t: step %d's screenshot red = %t, want %t (the page before its actions)", vision, i+1, red, wantRed)
			}
		}
	}
}

// redPage reports whether the picture's bottom right corner, away from the
// button and its label, is red.
func redPage(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Max.X-20, b.Max.Y-20).RGBA()
	return r>>8 > 200 && g>>8 < 80 && bl>>8 < 80
}
