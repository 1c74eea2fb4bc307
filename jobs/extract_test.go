package jobs_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/google/go-cmp/cmp"
)

// An extract job reads its selectors' texts and fills its schema from JSON-LD,
// microdata, x-selector, tables and label/value pairs, leaving out what the
// page does not say.
func TestExtractJob(t *testing.T) {
	t.Parallel()
	onBothStores(t, testExtractJob)
}

func testExtractJob(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	schema := `{"type":"object","properties":{
		"name":{"type":"string"},
		"price":{"type":"number"},
		"brand":{"type":"string"},
		"inStock":{"type":"boolean","x-label":"availability"},
		"ratingValue":{"type":"number"},
		"warranty":{"type":"string"},
		"weight":{"type":"string"},
		"height":{"type":"string"},
		"stores":{"type":"array","items":{"type":"object","properties":{"city":{"type":"string"},"stock":{"type":"integer"}}}},
		"reviews":{"type":"array","x-selector":".review","items":{"type":"object","properties":{"who":{"type":"string","x-selector":".who"},"stars":{"type":"integer","x-selector":".stars"}}}},
		"shownPrice":{"type":"string","x-selector":"p.price"},
		"gtin":{"type":"string"}
	},"required":["name","price"]}`
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/product.html"),
		Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1", ".nothing-here"}, Extract: json.RawMessage(schema)}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded {
		t.Fatalf("state %s: %s", done.State, done.Error)
	}
	var res struct {
		Texts   map[string][]string `json:"texts"`
		Data    map[string]any      `json:"data"`
		Sources map[string]string   `json:"sources"`
		Missing []string            `json:"missing"`
	}
	if err := json.Unmarshal(done.Result, &res); err != nil {
		t.Fatalf("result %s: %v", done.Result, err)
	}
	wantData := map[string]any{
		"name": "Trail Kettle 2", "price": 34.9, "brand": "Ridgeway", "inStock": true, "ratingValue": 4.6,
		"warranty": "2 years", "weight": "310 g", "height": "12 cm",
		"stores":     []any{map[string]any{"city": "Lyon", "stock": 4.0}, map[string]any{"city": "Grenoble", "stock": 0.0}},
		"reviews":    []any{map[string]any{"who": "Sam", "stars": 5.0}, map[string]any{"who": "Kim", "stars": 4.0}},
		"shownPrice": "€34.90",
	}
	if d := cmp.Diff(wantData, res.Data); d != "" {
		t.Errorf("data (-want +got):\n%s", d)
	}
	wantSources := map[string]string{
		"name": "json-ld", "price": "json-ld", "brand": "json-ld", "inStock": "json-ld", "ratingValue": "microdata",
		"warranty": "text", "weight": "dl", "height": "table-row", "stores": "table", "reviews": "x-selector", "shownPrice": "x-selector",
	}
	if d := cmp.Diff(wantSources, res.Sources); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"gtin"}, res.Missing); d != "" {
		t.Errorf("missing (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string][]string{"h1": {"Trail Kettle 2"}, ".nothing-here": {}}, res.Texts); d != "" {
		t.Errorf("texts (-want +got):\n%s", d)
	}
}

// A page that never finishes loading can still be read by an extract job.
func TestExtractNeverLoading(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/neverload"),
		Task: jobs.Task{Type: jobs.TaskExtract, TimeoutMs: int(testbound.Scale(10 * time.Second).Milliseconds()), Extract: json.RawMessage(`{"type":"object","properties":{"warranty":{"type":"string"}}}`)}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	var res struct {
		Data  map[string]any `json:"data"`
		Notes []string       `json:"notes"`
	}
	_ = json.Unmarshal(done.Result, &res)
	if done.State != jobs.Succeeded || res.Data["warranty"] != "3 years" || len(res.Notes) == 0 {
		t.Errorf("extract on a page that never loads: %s %q data %v notes %v", done.State, done.Error, res.Data, res.Notes)
	}
	n := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/neverload"), Task: jobs.Task{Type: jobs.TaskNavigate, TimeoutMs: 1500}})
	nd, _ := q.wait(t, n.ID, jobs.Succeeded, jobs.Failed)
	if nd.State != jobs.Failed || nd.Error == "" {
		t.Errorf("navigate on a page that never loads: %s %q", nd.State, nd.Error)
	}
}

// An extract job whose page never arrived (the server had not answered
// when its time to load ran out) reads nothing: it fails with the timeout,
// as a navigate job does, and has no result to pass off as the page's.
func TestExtractPageNeverArrived(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/slowpage?ms=8000"),
		Task: jobs.Task{Type: jobs.TaskExtract, TimeoutMs: 2000, Extract: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Failed || !strings.HasPrefix(done.Error, "TIMEOUT: ") || len(done.Result) > 0 {
		t.Errorf("extract from a page that never arrived: %s %q result %s summary %q", done.State, done.Error, done.Result, done.Summary)
	}
}

// A page the server answered with an HTTP error is its error page, not the
// page asked for: an extract job fails saying which status (NETWORK_ERROR,
// as for a navigation that brought no document of the page), and
// extract_structured answers that error with a hint; neither reads the
// error page's heading as data.
func TestExtractErrorPage(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)
	for _, code := range []int{404, 500} {
		url := site.URL(fmt.Sprintf("/status/%d", code))
		j := q.submit(t, jobs.SubmitRequest{URL: url, Task: jobs.Task{Type: jobs.TaskExtract, Extract: schema}})
		done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		if want := fmt.Sprintf("NETWORK_ERROR: the server answered HTTP %d", code); done.State != jobs.Failed || !strings.HasPrefix(done.Error, want) || len(done.Result) > 0 {
			t.Errorf("extract job on HTTP %d: %s %q result %s; want FAILED %q…", code, done.State, done.Error, done.Result, want)
		}
		x, err := q.Extract(testCtx(t), jobs.ExtractRequest{CorrelationID: "e", URL: url, Schema: schema})
		c := cdpclient.Classify(err)
		if err == nil || c.Code != cdpclient.CodeNetworkError || !strings.Contains(c.Msg, fmt.Sprintf("HTTP %d", code)) || c.Hint == "" {
			t.Errorf("extract_structured on HTTP %d: %+v %v", code, x, err)
		}
	}
}
