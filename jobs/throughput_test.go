package jobs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// storeName names the store b runs its jobs in.
func storeName(b *testing.B) string {
	if onPostgres(b) {
		return "PostgreSQL"
	}
	return "SQLite"
}

// BenchmarkThroughput runs 200 extract jobs on a fixture article with four
// tabs and reports jobs per minute, the dispatch delay, the memory of this
// process and its job browsers with four tabs busy, the CPU time a job
// costs in the browser and in this process, with the ceiling of jobs a
// minute that gives two idle cores, and the CDP commands a job sends (each
// costs the browser process CPU). With CDPMCP_BENCH_DIR set to the team's
// bench harness it also does the same 200 one by one through
// playwright-mcp's tools (scripts/jobsbench), in turns of 50 with ours, and
// prints both. TestMain runs it on SQLite, then on PostgreSQL.
//
//	go test -run '^$' -bench Throughput -benchtime 1x ./jobs
func BenchmarkThroughput(b *testing.B) {
	const n, batches = 200, 4
	bench := os.Getenv("CDPMCP_BENCH_DIR")
	for b.Loop() {
		dir := b.TempDir()
		counter := &cdpCounter{}
		jobs.TraceJobBrowsers(counter)
		q := openLaunchingQueue(&testing.T{}, dir, jobs.Config{MaxTabs: 4})
		jobs.TraceJobBrowsers(nil)
		// Warm up: the browser starts with the first job (not counted).
		w, _, _ := q.Submit(b.Context(), jobs.SubmitRequest{CorrelationID: "warm", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
		waitDone(b, q, w.ID)
		counter.take(1)
		// The machine is shared: batches of both servers take turns, so both
		// see the same load.
		var ours, theirs, browserCPUs, selfCPUs time.Duration
		byKind := map[string]time.Duration{}
		var rss, failed, theirsDone int
		for batch := range batches {
			start, browser0, self0 := time.Now(), browserCPUByKind(dir), selfCPU()
			ids := make([]string, 0, n/batches)
			for i := range n / batches {
				j, _, err := q.Submit(b.Context(), jobs.SubmitRequest{CorrelationID: fmt.Sprintf("bench-%d-%d", batch, i), URL: site.URL(fmt.Sprintf("/jobs/article.html?b=%d&i=%d", batch, i)),
					Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1"}}})
				if err != nil {
					b.Fatal(err)
				}
				ids = append(ids, j.ID)
			}
			if batch == 0 {
				for q.Stats().Running < 4 {
					time.Sleep(5 * time.Millisecond)
				}
				time.Sleep(200 * time.Millisecond)
				rss = treeRSSKiB(dir)
			}
			for _, id := range ids {
				if j := waitDone(b, q, id); j.State != jobs.Succeeded {
					failed++
				}
			}
			ours += time.Since(start)
			for kind, d := range browserCPUByKind(dir) {
				byKind[kind] += d - browser0[kind]
				browserCPUs += d - browser0[kind]
			}
			selfCPUs += selfCPU() - self0
			if bench != "" {
				out, err := exec.Command("node", "../scripts/jobsbench/playwright-extract.mjs", bench, site.URL("/jobs/article.html"), strconv.Itoa(n/batches)).CombinedOutput()
				var r struct{ Ms, Ok int }
				if err != nil || json.Unmarshal(bytes.TrimSpace(out), &r) != nil {
					b.Fatalf("playwright-mcp: %v\n%s", err, out)
				}
				theirs += time.Duration(r.Ms) * time.Millisecond
				theirsDone += r.Ok
			}
		}
		st := q.Stats()
		commands, methods := counter.take(n)
		b.ReportMetric(float64(commands)/n, "cdp-commands/job")
		perMin := float64(n) / ours.Minutes()
		b.ReportMetric(perMin, "jobs/min")
		b.ReportMetric(float64(st.DispatchMedian.Microseconds())/1000, "dispatch-median-ms")
		b.ReportMetric(float64(rss)/1024, "MiB-PSS-4-tabs")
		// CPU a job costs, whatever else the machine runs: two idle cores
		// give 120 CPU-seconds a minute, the ceiling of jobs a minute.
		perJob := (browserCPUs + selfCPUs) / n
		ceiling := 2 * float64(time.Minute) / float64(perJob)
		b.ReportMetric(float64(browserCPUs.Microseconds())/1000/n, "browser-cpu-ms/job")
		b.ReportMetric(float64(selfCPUs.Microseconds())/1000/n, "server-cpu-ms/job")
		b.ReportMetric(ceiling, "ceiling-jobs/min-2-cores")
		fmt.Fprintf(os.Stderr, "cdpmcp jobs on %s: %d extract jobs (%d failed) with --max-tabs 4 in %v: %.0f jobs/min; dispatch delay median %v p95 %v; memory (PSS) with 4 tabs busy %.0f MiB (server + job browser); CPU a job: browser %v, server %v, so at most %.0f jobs/min on two idle cores\n",
			storeName(b), n, failed, ours.Round(time.Millisecond), perMin, st.DispatchMedian, st.DispatchP95, float64(rss)/1024,
			(browserCPUs / n).Round(100*time.Microsecond), (selfCPUs / n).Round(100*time.Microsecond), ceiling)
		var kinds []string
		for kind, d := range byKind {
			kinds = append(kinds, fmt.Sprintf("%s %v", kind, (d/n).Round(100*time.Microsecond)))
		}
		slices.Sort(kinds)
		fmt.Fprintf(os.Stderr, "the browser's CPU a job by process: %s\nCDP commands a job: %.1f (%s)\n", strings.Join(kinds, ", "), float64(commands)/n, methods)
		if bench != "" {
			theirsPerMin := float64(n) / theirs.Minutes()
			b.ReportMetric(theirsPerMin, "playwright-jobs/min")
			fmt.Fprintf(os.Stderr, "playwright-mcp, the same %d one by one (%d read the heading): %v, %.0f jobs/min; cdpmcp is %.1f× as fast\n",
				n, theirsDone, theirs.Round(time.Millisecond), theirsPerMin, perMin/theirsPerMin)
		}
		q.close()
	}
}

func waitDone(b *testing.B, q *testQueue, id string) *jobs.Job {
	for {
		j, err := q.Status(b.Context(), id)
		if err != nil {
			b.Fatal(err)
		}
		if j.State.Terminal() {
			return j
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// treeRSSKiB sums the proportional set size (shared pages split between the
// processes sharing them, so nothing is counted twice) of this process and of
// every process in the groups of browsers whose profile is under dir.
func treeRSSKiB(dir string) int {
	groups := map[int]bool{}
	for _, pid := range browsersUnder(dir) {
		p, _ := strconv.Atoi(pid)
		if g, err := syscall.Getpgid(p); err == nil {
			groups[g] = true
		}
	}
	total := rssKiB(os.Getpid())
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range procs {
		p, _ := strconv.Atoi(filepath.Base(d))
		if g, err := syscall.Getpgid(p); err == nil && groups[g] {
			total += rssKiB(p)
		}
	}
	return total
}

func rssKiB(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pss:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}
