// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// Job answers never contradict themselves: a job asked about under another
// correlationId is refused (never answered with the wrong id echoed), and
// cancel or resume under it change nothing; a duplicate submit is answered
// as the first one was, with the job's state now; an extraction's currency is found in
// the offer's JSON-LD priceCurrency.
func TestJobAnswersAgree(t *testing.T) {
	t.Parallel()
	c, _ := jobServer(t)
	submit := func(corr, url string) string {
		t.Helper()
		a, res := callJob(t, c, "browser.job.submit", map[string]any{"correlationId": corr, "url": url, "task": map[string]any{"type": "navigate"}})
		if a == nil {
			t.Fatalf("submit: %s", errText(res))
		}
		return a["jobId"].(string)
	}
	status := func(corr, id string) string {
		st, res := callJob(t, c, "browser.job.status", map[string]any{"correlationId": corr, "jobId": id})
		if st == nil {
			t.Fatalf("status: %s", errText(res))
		}
		return st["status"].(string)
	}
	x, res := callJob(t, c, "browser.snapshot.extract_structured", map[string]any{"correlationId": "agree", "url": site.URL("/jobs/product.html"),
		"schema": map[string]any{"type": "object", "properties": map[string]any{"price": map[string]any{"type": "number"}, "currency": map[string]any{"type": "string"}}}})
	if x == nil {
		t.Fatalf("extract_structured: %s", errText(res))
	}
	data, _ := x["data"].(map[string]any)
	sources, _ := x["sources"].(map[string]any)
	if data["currency"] != "EUR" || data["price"] != 34.9 || sources["currency"] != "json-ld" {
		t.Errorf("extract_structured of price and currency: %v", x)
	}
	// Two jobs that never load hold both tabs, so a third stays queued.
	busy := []string{submit("agree-1", site.URL("/jobs/neverload?1")), submit("agree-2", site.URL("/jobs/neverload?2"))}
	for i, id := range busy {
		testbound.Until(t, id+" to run", func() bool { return status(fmt.Sprint("agree-", i+1), id) == "RUNNING" })
	}
	queued := map[string]any{"correlationId": "agree-3", "url": site.URL("/jobs/article.html"), "task": map[string]any{"type": "navigate"}}
	first, _ := callJob(t, c, "browser.job.submit", queued)
	id := first["jobId"].(string)
	if dup, res := callJob(t, c, "browser.job.submit", queued); dup == nil || dup["jobId"] != id || dup["status"] != "QUEUED" ||
		dup["duplicate"] != true || dup["currentStatus"] != "QUEUED" {
		t.Errorf("duplicate of a queued job: %v %s", dup, errText(res))
	}

	for _, tool := range []string{"browser.job.status", "browser.job.cancel", "browser.job.resume"} {
		st, res := callJob(t, c, tool, map[string]any{"correlationId": "someone-else", "jobId": busy[0]})
		want := "job " + busy[0] + ` was submitted with correlationId "agree-1", not "someone-else"; nothing changed`
		if st != nil || !strings.Contains(errText(res), want) || !strings.Contains(errText(res), "hint: pass the correlationId and jobId") {
			t.Errorf("%s under another correlationId: %v %q, want an error saying %q", tool, st, errText(res), want)
		}
	}
	if s := status("agree-1", busy[0]); s != "RUNNING" {
		t.Errorf("after a cancel under another correlationId the job is %s, want RUNNING", s)
	}
	for i, j := range append(busy, id) {
		corr := fmt.Sprint("agree-", i+1)
		if a, res := callJob(t, c, "browser.job.cancel", map[string]any{"correlationId": corr, "jobId": j}); a == nil || a["correlationId"] != corr {
			t.Errorf("cancel %s: %v %s", j, a, errText(res))
		}
	}
}
