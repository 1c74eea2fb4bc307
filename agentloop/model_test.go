package agentloop

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

var doneAnswer = answer(Brain{Summary: "finish"}, `{"done": {"result": "ok"}}`)

// A 500 and a 429 are retried; the run goes on with the answer that follows.
func TestModelServerErrorsRetried(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	m := newScriptedModel(t, turn{status: http.StatusInternalServerError}, turn{status: http.StatusTooManyRequests}, turn{reply: doneAnswer})
	out, err := Run(testCtx(t), env, m.openAI(), Config{RunDir: runDir(t)}, Task{Task: "say ok"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Success || out.Result != "ok" || out.Steps != 1 {
		t.Errorf("outcome %+v", out)
	}
	if n := len(m.requests()); n != 3 {
		t.Errorf("model asked %d times, want 3", n)
	}
}

// A call that hangs is abandoned at the timeout and made again (a run that
// waited for it would outlast the test bound).
func TestModelHangAbandonedAndRetried(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	m := newScriptedModel(t, turn{hang: true}, turn{reply: doneAnswer})
	llm := m.openAI()
	llm.Timeout = testbound.Scale(2 * time.Second) // beyond an answer's time, so only the hang is abandoned
	out, err := Run(testCtx(t), env, llm, Config{RunDir: runDir(t)}, Task{Task: "say ok"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Success || len(m.requests()) != 2 {
		t.Errorf("outcome %+v after %d requests", out, len(m.requests()))
	}
	select {
	case <-m.requests()[0].gone:
	case <-time.After(testbound.Bound()):
		t.Error("the hanging request was not abandoned")
	}
}

// An error a retry cannot fix (400) ends the run at once, saying why.
func TestModelClientErrorEndsRun(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	m := newScriptedModel(t, turn{status: http.StatusBadRequest})
	out, err := Run(testCtx(t), env, m.openAI(), Config{RunDir: runDir(t)}, Task{Task: "say ok"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Success || out.Stop != StopModelError || !strings.Contains(out.Reason, "HTTP 400: scripted 400") {
		t.Errorf("outcome %+v", out)
	}
	if n := len(m.requests()); n != 1 {
		t.Errorf("model asked %d times, want 1", n)
	}
}

// Cancelling the run aborts the model call in flight at once (it hangs
// forever) and starts no other; the record is still finished.
func TestCancelAbortsModelCall(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	m := newScriptedModel(t, turn{hang: true})
	ctx, cancel := context.WithCancel(testCtx(t))
	go func() {
		for len(m.requests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	out, err := Run(ctx, env, m.openAI(), Config{RunDir: runDir(t)}, Task{Task: "wait forever"})
	if !errors.Is(err, context.Canceled) || out == nil || out.Stop != StopCancelled {
		t.Fatalf("Run = %+v, %v; want a cancelled outcome", out, err)
	}
	select {
	case <-m.requests()[0].gone:
	case <-time.After(testbound.Bound()):
		t.Error("the model call went on after the cancel")
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(m.requests()); n != 1 {
		t.Errorf("model asked %d times, want 1", n)
	}
	if out.Report == "" {
		t.Error("a cancelled run left no report")
	}
}

// The request carries the model name and the key; an image goes as a data URL
// part; text parts in the answer are joined.
func TestOpenAIRequestAndAnswerShapes(t *testing.T) {
	t.Parallel()
	m := newScriptedModel(t, turn{reply: "hello"})
	llm := m.openAI()
	llm.APIKey = "sk-test"
	llm.BaseURL += "/chat/completions/"
	ans, err := llm.Complete(testCtx(t), Prompt{System: "sys", User: "usr", Image: &Image{Data: []byte{0xff, 0xd8, 1}, MIME: "image/jpeg"}})
	if err != nil {
		t.Fatal(err)
	}
	r := m.requests()[0]
	if r.Model != "scripted" || r.Auth != "Bearer sk-test" || r.System != "sys" || r.User != "usr" || len(r.Images) != 1 || r.Images[0][0] != 0xff {
		t.Errorf("request %+v", r)
	}
	if ans.Text != "hello" || ans.Model != "scripted-1" {
		t.Errorf("answer %+v", ans)
	}
	got, err := parseCompletion([]byte(`{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}`))
	if err != nil || got.Text != "ab" {
		t.Errorf("parts answer = %+v, %v", got, err)
	}
	if _, err := parseCompletion([]byte(`{"choices":[]}`)); err == nil {
		t.Error("an answer without choices was accepted")
	}
}

// A provider that echoes the API key it refused does not put the key in the
// run's outcome, record or report.
func TestModelErrorEchoingTheKey(t *testing.T) {
	t.Parallel()
	const key = "sekrit-key-1234567890"
	env := newEnv(t)
	m := newScriptedModel(t, turn{status: http.StatusUnauthorized, reply: "Incorrect API key provided: " + key + "."})
	llm := m.openAI()
	llm.APIKey = key
	out, err := Run(testCtx(t), env, llm, Config{RunDir: runDir(t)}, Task{Task: "say ok"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != StopModelError || !strings.Contains(out.Reason, "Incorrect API key provided: [api key].") {
		t.Errorf("outcome %+v", out)
	}
	files, err := os.ReadDir(out.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(out.RunDir, f.Name()))
		if err == nil && strings.Contains(string(data), "1234567890") {
			t.Errorf("%s holds the key", f.Name())
		}
	}
}
