package agentloop

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		var paint int
		m := newScriptedModel(t,
			turn{reply: answer(Brain{}, `{"go_to_url": {"url": "`+srv.URL+`"}}`)},
			turn{replyFn: func(r *modelReq) string {
				paint = refOf(t, r.User, "Paint")
				return answer(Brain{}, fmt.Sprintf(`{"click_element": {"index": %d}}`, paint))
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
		checkMarks(t, out, steps, vision, paint)
	}
}

// decodeJPEG reads a JPEG file.
func decodeJPEG(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// redPage reports whether the picture's bottom right corner, away from the
// button and its label, is red.
func redPage(t *testing.T, path string) bool {
	t.Helper()
	img := decodeJPEG(t, path)
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Max.X-20, b.Max.Y-20).RGBA()
	return r>>8 > 200 && g>>8 < 80 && bl>>8 < 80
}

// checkMarks checks a step's numbered boxes on the page with the Paint
// button: without vision the record keeps the button's box, in the picture's
// pixels, and the report draws it over the picture, which has nothing drawn
// on it; with vision the box is drawn in the picture the model saw, and the
// record keeps none.
func checkMarks(t *testing.T, out *Outcome, steps []StepRecord, vision bool, paint int) {
	t.Helper()
	step, marks := steps[1], 0
	for _, s := range steps {
		marks += len(s.Marks)
	}
	html, err := os.ReadFile(out.Report)
	if err != nil {
		t.Fatal(err)
	}
	spans := strings.Count(string(html), `<span class="mark"`)
	if vision {
		if marks != 0 || spans != 0 {
			t.Errorf("vision: the record keeps %d marks and the report draws %d, want none (drawn in the picture)", marks, spans)
		}
		return
	}
	if len(step.Marks) != 1 || step.Marks[0].Ref != paint {
		t.Fatalf("step 2's marks = %+v, want one for the Paint button [%d]", step.Marks, paint)
	}
	m := step.Marks[0]
	if m.X < 0 || m.Y < 0 || m.X > 20 || m.Y > 20 || m.W < 30 || m.H < 10 || m.W > 200 || m.H > 60 {
		t.Errorf("the Paint button's mark %+v is not where the button is, at the top left", m)
	}
	if !strings.Contains(string(html), fmt.Sprintf(">%d</b></span>", paint)) || spans != marks {
		t.Errorf("the report draws %d marks, want the record's %d, the Paint button's [%d] among them", spans, marks, paint)
	}
	img := decodeJPEG(t, filepath.Join(out.RunDir, step.Screenshot))
	// The box's left edge, halfway down, would have its colour if drawn.
	var want [3]int
	if _, err := fmt.Sscanf(m.Color, "#%02x%02x%02x", &want[0], &want[1], &want[2]); err != nil {
		t.Fatalf("mark colour %q: %v", m.Color, err)
	}
	r, g, b, _ := img.At(m.X+1, m.Y+m.H/2).RGBA()
	if d := max(abs(int(r>>8)-want[0]), abs(int(g>>8)-want[1]), abs(int(b>>8)-want[2])); d < 60 {
		t.Errorf("the picture has the mark drawn on it: (%d,%d,%d) at its left edge, the mark's %s", r>>8, g>>8, b>>8, m.Color)
	}
}

func abs(v int) int { return max(v, -v) }

// Without vision a step's picture is asked for first (the walk beside it)
// only when the last model answered sooner than the last picture took, so
// that the actions wait less for it; a model that thinks gets its list first.
func TestCaptureFirstFollowsThePace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		vision         bool
		model, capture time.Duration
		want           bool
	}{
		{vision: true, want: true},
		{want: false}, // the first step: nothing measured yet
		{model: 2 * time.Millisecond, capture: 35 * time.Millisecond, want: true},
		{model: 800 * time.Millisecond, capture: 35 * time.Millisecond, want: false},
		{vision: true, model: 800 * time.Millisecond, capture: 35 * time.Millisecond, want: true},
	} {
		r := &runner{cfg: Config{Vision: tc.vision}}
		r.pace.model.Store(int64(tc.model))
		r.pace.capture.Store(int64(tc.capture))
		if got := r.captureFirst(); got != tc.want {
			t.Errorf("vision %t, model %v, picture %v: captureFirst = %t, want %t", tc.vision, tc.model, tc.capture, got, tc.want)
		}
	}
}
