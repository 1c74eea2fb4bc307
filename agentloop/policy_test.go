package agentloop

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// With vision, every step sends one annotated JPEG; without, none (the
// record keeps a screenshot either way).
func TestVisionSendsScreenshot(t *testing.T) {
	t.Parallel()
	for _, vision := range []bool{true, false} {
		env := newEnv(t)
		page := site.URL("/agent/form.html")
		images := func(t testing.TB, r *modelReq) {
			want := 0
			if vision {
				want = 1
			}
			if len(r.Images) != want {
				t.Errorf("vision %t: %d images, want %d", vision, len(r.Images), want)
			}
			for _, img := range r.Images {
				if !bytes.HasPrefix(img, []byte{0xff, 0xd8, 0xff}) || len(img) < 2000 {
					t.Errorf("image is not a JPEG screenshot (%d bytes)", len(img))
				}
			}
		}
		m := newScriptedModel(t,
			turn{check: images, reply: answer(Brain{}, `{"go_to_url": {"url": "`+page+`"}}`)},
			turn{check: images, reply: doneAnswer})
		out, err := Run(testCtx(t), env, m.openAI(), Config{Vision: vision, RunDir: runDir(t)}, Task{Task: "look"})
		if err != nil || !out.Success {
			t.Fatalf("Run = %+v, %v", out, err)
		}
		checkRecord(t, out, 2)
	}
}

// In read-only mode the Functions list offers no action that changes a page,
// and one asked for anyway is refused with the reason in the next prompt.
func TestReadOnlyInsideTheLoop(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.ReadOnly = true
	page := site.URL("/agent/actions.html")
	system := SystemPrompt(10, Functions(true, false))
	for _, absent := range []string{"click_element:", "input_text:", "send_keys:", "select_option:", "hover_element:", "upload_file:", "paste_from_clipboard:", "close_tab:"} {
		if strings.Contains(system, "\n"+absent) {
			t.Errorf("read-only Functions list offers %s", absent)
		}
	}
	for _, present := range []string{"go_to_url:", "open_tab:", "switch_tab:", "scroll:", "extract_page_content:", "wait_for:", "done:"} {
		if !strings.Contains(system, "\n"+present) {
			t.Errorf("read-only Functions list lacks %s", present)
		}
	}
	m := newScriptedModel(t,
		turn{check: func(t testing.TB, r *modelReq) {
			if r.System != system {
				t.Error("the run's system prompt is not the read-only one")
			}
		}, reply: answer(Brain{}, `{"go_to_url": {"url": "`+page+`"}}`)},
		turn{replyFn: func(r *modelReq) string { return answer(Brain{}, click(refOf(t, r.User, "Increment"))) }},
		turn{check: func(t testing.TB, r *modelReq) {
			if !strings.Contains(r.User, "Error of previous action 1/1: click_element is not allowed: this browser is in read-only mode") {
				t.Errorf("refusal not explained:\n%s", r.User)
			}
		}, reply: doneAnswer},
	)
	if _, err := Run(testCtx(t), env, m.openAI(), Config{RunDir: runDir(t)}, Task{Task: "click"}); err != nil {
		t.Fatal(err)
	}
	if got := evalOn(t, env, "document.getElementById('count').textContent"); got != `"0"` {
		t.Errorf("read-only run changed the page: count %s", got)
	}
}

// Origin rules hold inside the loop: a URL outside them is refused, the reason
// is in the next prompt and the page stays where it was.
func TestOriginRulesInsideTheLoop(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	policy, err := origins.NewList([]string{site.Base}, nil)
	if err != nil {
		t.Fatal(err)
	}
	env.Origins = policy
	m := newScriptedModel(t,
		turn{reply: answer(Brain{}, `{"go_to_url": {"url": "`+site.AltURL("/home.html")+`"}}`)},
		turn{check: func(t testing.TB, r *modelReq) {
			if !strings.Contains(r.User, "Error of previous action 1/1: PERMISSION: blocked") || !strings.Contains(r.User, "4. Current url: about:blank") {
				t.Errorf("blocked navigation not explained:\n%s", r.User)
			}
		}, reply: doneAnswer},
	)
	out, err := Run(testCtx(t), env, m.openAI(), Config{RunDir: runDir(t)}, Task{Task: "go elsewhere"})
	if err != nil {
		t.Fatal(err)
	}
	if out.FinalURL != "about:blank" {
		t.Errorf("final URL %s", out.FinalURL)
	}
}
