package jobs_test

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/google/go-cmp/cmp"
)

// With a model configured, extract_structured asks it for the fields the rules
// do not find, giving it the page's text; it keeps what the text states and
// refuses what the model made up, saying where each field came from.
func TestExtractAsksTheModelForTheRest(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var problem atomic.Value
	model := chatModel(t, func(n int, prompt string) string {
		calls.Store(int32(n))
		for _, want := range []string{"Never guess", "- boilTime (string)", "- origin (string)", "Boils half a litre in under four minutes."} {
			if !strings.Contains(prompt, want) {
				problem.Store("the prompt lacks " + want + ": " + prompt)
			}
		}
		if strings.Contains(prompt, "- name (string)") {
			problem.Store("the model was asked for a field the rules found: " + prompt)
		}
		return `{"boilTime": "under four minutes", "origin": "Made in France"}`
	})
	q := newQueue(t, jobs.Config{MaxTabs: 1, Model: model})
	got, err := q.Extract(testCtx(t), jobs.ExtractRequest{CorrelationID: "m1", URL: site.URL("/jobs/product.html"),
		Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"boilTime":{"type":"string"},"origin":{"type":"string"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if p := problem.Load(); p != nil {
		t.Error(p)
	}
	if calls.Load() != 1 {
		t.Errorf("the model was asked %d times", calls.Load())
	}
	res := got.Result
	if d := cmp.Diff(map[string]any{"name": "Trail Kettle 2", "boilTime": "under four minutes"}, res.Data); d != "" {
		t.Errorf("data (-want +got):\n%s", d)
	}
	if res.Sources["boilTime"] != "model" || res.Sources["name"] != "json-ld" || !cmp.Equal(res.Missing, []string{"origin"}) {
		t.Errorf("sources %v, missing %v", res.Sources, res.Missing)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "the model named origin (Made in France), which the page's text does not state; left out") {
		t.Errorf("notes:\n%s", notes)
	}
}

// The page's text reaches the model redacted: a secret the page shows (here a
// --secret-env value the page echoes) is not sent to the model's provider.
func TestExtractHidesSecretsFromTheModel(t *testing.T) {
	t.Parallel()
	const secret = "tok-Zq81mVb72Lxe"
	reg := secrets.New()
	reg.Add(secret)
	var problem atomic.Value
	model := chatModel(t, func(n int, prompt string) string {
		if strings.Contains(prompt, secret) || !strings.Contains(prompt, "token="+secrets.Mask) {
			problem.Store("the model's prompt: " + prompt)
		}
		return `{"owner": "Alice"}`
	})
	q := newQueue(t, jobs.Config{MaxTabs: 1, Model: model, Browser: cdpclient.Options{Secrets: reg}})
	got, err := q.Extract(testCtx(t), jobs.ExtractRequest{CorrelationID: "s1", URL: site.URL("/echo?token=" + secret + "&owner=Alice"),
		Schema: json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if p := problem.Load(); p != nil {
		t.Error(p)
	}
	if got.Result.Data["owner"] != "Alice" {
		t.Errorf("data %v, notes %v", got.Result.Data, got.Result.Notes)
	}
}
