package main

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// scrape reads a /metrics page.
func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, b)
	}
	return string(b)
}

// gauge is the value of the sample of family name with the given labels
// ("" for none), or -1 when there is none.
func gauge(page, name, labels string) float64 {
	if labels != "" {
		labels = regexp.QuoteMeta("{" + labels + "}")
	}
	m := regexp.MustCompile(`(?m)^` + name + labels + ` (\S+)$`).FindStringSubmatch(page)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// The gauges a pager reads on a fleet: a serve that runs no jobs is no
// worker, and counts its MCP sessions' tabs; a worker's own page counts its
// open tabs and running jobs; a
// worker killed with SIGKILL holds no live lease once one lease has passed
// since it last could renew, and the gauge of workers says so then (before
// issue 36 it counted it for three leases).
func TestMetricsAPagerCanTrust(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	ctx := testCtx(t, 5*time.Minute)
	srv := startHTTP(t, "metrics-serve", "--jobs-db", db, "--max-tabs", "0", "--lease", "10s", "--worker-id", "serve", "--data-dir", t.TempDir(), "--caps", "jobs")
	defer srv.stop(t)
	page := strings.TrimSuffix(srv.url, "/mcp") + "/metrics"
	w := startWorker(t, db, "w1", "--max-tabs", "2")
	testbound.UntilNil(t, "the worker to be counted", func() error {
		if m := scrape(t, page); gauge(m, "cdpmcp_workers", "") != 1 || gauge(m, "cdpmcp_lease_age_seconds", `worker="w1"`) < 0 {
			return fmt.Errorf("not yet:\n%s", m)
		}
		return nil
	})
	c := httpClient(t, ctx, srv.url, "")
	id := jobCall(t, ctx, c, "browser.job.submit", map[string]any{"correlationId": "hangs", "url": site.URL("/jobs/neverload"),
		"task": map[string]any{"type": "navigate", "timeoutMs": 3_600_000}})["jobId"].(string)
	waitJob(t, ctx, c, id, "RUNNING")
	testbound.UntilNil(t, "the worker's page to count its running job and its tab", func() error {
		if own := scrape(t, w.metrics); gauge(own, "cdpmcp_jobs_running", `worker="w1"`) != 1 || gauge(own, "cdpmcp_tabs_open", `worker="w1"`) != 1 {
			return fmt.Errorf("not yet:\n%s", own)
		}
		return nil
	})
	m := scrape(t, page)
	if gauge(m, "cdpmcp_workers", "") != 1 {
		t.Errorf("cdpmcp_workers is not 1 (the worker; the serve runs no jobs):\n%s", m)
	}
	for _, fam := range []string{"cdpmcp_worker_tabs_open", "cdpmcp_worker_tabs_free", "cdpmcp_lease_age_seconds"} {
		if gauge(m, fam, `worker="serve"`) >= 0 {
			t.Errorf("%s has the serve that runs no jobs", fam)
		}
	}
	if gauge(m, "cdpmcp_lease_seconds", "") != 10 {
		t.Errorf("cdpmcp_lease_seconds: %v", gauge(m, "cdpmcp_lease_seconds", ""))
	}
	// The serve's own tabs: its MCP session's.
	if gauge(m, "cdpmcp_session_tabs_open", "") != 0 {
		t.Errorf("cdpmcp_session_tabs_open before any page tool: %v", gauge(m, "cdpmcp_session_tabs_open", ""))
	}
	mustCall(t, ctx, c, "navigate", map[string]any{"url": site.URL("/home.html")})
	if m := scrape(t, page); gauge(m, "cdpmcp_session_tabs_open", "") != 1 {
		t.Errorf("cdpmcp_session_tabs_open with a session's tab: %v", gauge(m, "cdpmcp_session_tabs_open", ""))
	}

	w.kill()
	killed := time.Now()
	// No renewal can come after the kill; one lease (and a second for the
	// clocks' resolution) later, the worker holds no live lease.
	time.Sleep(10*time.Second + time.Second - time.Since(killed))
	if m := scrape(t, page); gauge(m, "cdpmcp_workers", "") != 0 || gauge(m, "cdpmcp_lease_age_seconds", `worker="w1"`) >= 0 {
		t.Errorf("a lease after the worker was killed, it is still counted:\n%s", m)
	}
}
