package jobs_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient/snapshot"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// benchModel is a chat-completions endpoint that does the learn site's
// order task from whatever page its prompt shows (so concurrent runs share
// it): sign in, fill and place the order, say done. It counts its calls and
// the estimated o200k tokens of what it was sent.
type benchModel struct {
	srv           *httptest.Server
	calls, tokens atomic.Int64
	// latency is how long each answer takes, in ms: a hosted model's.
	latency atomic.Int64
}

func newBenchModel(b *testing.B) *benchModel {
	m := &benchModel{}
	idx := func(prompt, name string) string {
		if g := regexp.MustCompile(`(?m)^(\d+)\[:\]<(?:input|select|button)[^>]*>` + regexp.QuoteMeta(name) + `</`).FindStringSubmatch(prompt); g != nil {
			return g[1]
		}
		return "0"
	}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		var system, prompt string
		if len(req.Messages) == 2 {
			_ = json.Unmarshal(req.Messages[0].Content, &system)
			if json.Unmarshal(req.Messages[1].Content, &prompt) != nil {
				var parts []struct{ Text string }
				_ = json.Unmarshal(req.Messages[1].Content, &parts)
				for _, p := range parts {
					prompt += p.Text
				}
			}
		}
		time.Sleep(time.Duration(m.latency.Load()) * time.Millisecond)
		m.calls.Add(1)
		m.tokens.Add(int64(snapshot.Estimate(system) + snapshot.Estimate(prompt)))
		st := `{"current_state":{"prev_action_evaluation":"Success","important_contents":"","task_progress":"","future_plans":"","thought":"","summary":"next"},"action":[`
		var acts string
		switch {
		case regexp.MustCompile(`>Password</`).MatchString(prompt):
			acts = `{"input_text":{"index":` + idx(prompt, "Email") + `,"text":"ada@example.com"}},{"input_text":{"index":` + idx(prompt, "Password") +
				`,"text":"` + fixtures.LearnPassword + `"}},{"click_element":{"index":` + idx(prompt, "Sign in") + `}}`
		case regexp.MustCompile(`>Place order</`).MatchString(prompt):
			acts = `{"input_text":{"index":` + idx(prompt, "Full name") + `,"text":"Ada Lovelace"}},{"select_option":{"index":` + idx(prompt, "Delivery") +
				`,"option":"Express"}},{"click_element":{"index":` + idx(prompt, "Gift wrap") + `}},{"click_element":{"index":` + idx(prompt, "Place order") + `}}`
		default:
			acts = `{"done":{"result":"ordered","success":true}}`
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": st + acts + "]}"}}}})
	}))
	b.Cleanup(m.srv.Close)
	return m
}

var scriptPath = regexp.MustCompile(`\(script: (\S+)\)`)

// BenchmarkLearnedTask runs the learn site's sign-in and order ten times:
// first as a custom job (the agent on a scripted model server), then nine
// times as a script job replaying what that run learned. It reports the
// model calls and tokens of the first and the tenth run, the run time of
// each kind (the scripted model answers at once: a real model adds its own
// latency to every call of the agent's run), and jobs/min of 20 script jobs
// against 20 custom jobs with four tabs; then the agent's run and the custom
// jobs again with a model that takes a second an answer.
//
//	go test -run '^$' -bench LearnedTask -benchtime 1x ./jobs
func BenchmarkLearnedTask(b *testing.B) {
	const tabs, batch = 4, 20
	task := "Sign in (email ada@example.com, password " + fixtures.LearnPassword + ") and order a gift-wrapped widget for Ada Lovelace, express delivery"
	url := site.URL("/learn/site/signin")
	for b.Loop() {
		model := newBenchModel(b)
		agent := &jobs.LoopAgent{Model: &agentloop.OpenAI{BaseURL: model.srv.URL, Retries: -1}, Loop: agentloop.Config{MaxSteps: 8, Vision: true, RunDir: b.TempDir()}}
		q := openLaunchingQueue(&testing.T{}, b.TempDir(), jobs.Config{MaxTabs: tabs, Agent: agent})
		w, _, _ := q.Submit(b.Context(), jobs.SubmitRequest{CorrelationID: "warm", URL: url, Task: jobs.Task{Type: jobs.TaskNavigate}})
		waitDone(b, q, w.ID)
		run := func(name string, t jobs.Task) (*jobs.Job, time.Duration) {
			j, _, err := q.Submit(b.Context(), jobs.SubmitRequest{CorrelationID: name, URL: url, Task: t})
			if err != nil {
				b.Fatal(err)
			}
			done := waitDone(b, q, j.ID)
			if done.State != jobs.Succeeded {
				b.Fatalf("%s: %s %s", name, done.State, done.Error)
			}
			return done, done.Finished.Sub(done.Started)
		}
		custom := jobs.Task{Type: jobs.TaskCustom, Instructions: task}
		first, agentTime := run("run-1", custom)
		firstCalls, firstTokens := model.calls.Load(), model.tokens.Load()
		m := scriptPath.FindStringSubmatch(first.Summary)
		if m == nil {
			b.Fatalf("the agent's run names no script: %s", first.Summary)
		}
		script, err := os.ReadFile(m[1])
		if err != nil {
			b.Fatal(err)
		}
		replay := func(i int) jobs.Task {
			return jobs.Task{Type: jobs.TaskScript, Script: script, Params: map[string]string{"password": fixtures.LearnPassword, "full_name": fmt.Sprintf("Bench %d", i)}}
		}
		var times []time.Duration
		var tenthCalls, tenthTokens int64
		for i := 2; i <= 10; i++ {
			c, k := model.calls.Load(), model.tokens.Load()
			_, d := run(fmt.Sprintf("run-%d", i), replay(i))
			times = append(times, d)
			tenthCalls, tenthTokens = model.calls.Load()-c, model.tokens.Load()-k
		}
		slices.Sort(times)
		replayTime := times[len(times)/2]

		many := func(kind string, task func(i int) jobs.Task) float64 {
			start := time.Now()
			var ids []string
			for i := range batch {
				j, _, err := q.Submit(b.Context(), jobs.SubmitRequest{CorrelationID: fmt.Sprintf("%s-%d", kind, i), URL: url, Task: task(100 + i)})
				if err != nil {
					b.Fatal(err)
				}
				ids = append(ids, j.ID)
			}
			for _, id := range ids {
				if j := waitDone(b, q, id); j.State != jobs.Succeeded {
					b.Fatalf("%s job: %s %s", kind, j.State, j.Error)
				}
			}
			return batch / time.Since(start).Minutes()
		}
		scriptRate := many("script", replay)
		customRate := many("custom", func(int) jobs.Task { return custom })
		// The same with a model that takes a second an answer, as a fast
		// hosted one does.
		model.latency.Store(1000)
		_, slowAgent := run("run-slow", custom)
		slowRate := many("custom-slow", func(int) jobs.Task { return custom })
		q.close()

		b.ReportMetric(float64(firstCalls), "run1-model-calls")
		b.ReportMetric(float64(firstTokens), "run1-tokens")
		b.ReportMetric(float64(tenthCalls), "run10-model-calls")
		b.ReportMetric(float64(tenthTokens), "run10-tokens")
		b.ReportMetric(float64(agentTime.Milliseconds()), "agent-run-ms")
		b.ReportMetric(float64(replayTime.Milliseconds()), "replay-ms")
		b.ReportMetric(scriptRate, "script-jobs/min")
		b.ReportMetric(customRate, "custom-jobs/min")
		b.ReportMetric(float64(slowAgent.Milliseconds()), "agent-run-ms-1s-model")
		b.ReportMetric(slowRate, "custom-jobs/min-1s-model")
		fmt.Fprintf(os.Stderr, "learned task: run 1 (agent) %d model calls, ~%d tokens, %v; run 10 (replay) %d model calls, %d tokens; replay median %v (%.1f× faster); "+
			"%d jobs with %d tabs: script %.0f jobs/min, custom %.0f jobs/min (%.1f×); with a model answering in 1 s: the agent's run %v, custom %.0f jobs/min\n",
			firstCalls, firstTokens, agentTime.Round(time.Millisecond), tenthCalls, tenthTokens, replayTime.Round(time.Millisecond),
			float64(agentTime)/float64(replayTime), batch, tabs, scriptRate, customRate, scriptRate/customRate, slowAgent.Round(time.Millisecond), slowRate)
	}
}
