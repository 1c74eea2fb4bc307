package jobs_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// A profile keeps the cookies its last job left even when its browser dies
// without writing them to disk (a server killed moments after the job): the
// next browser of the profile starts with them.
func TestProfileCookiesOutliveAKilledBrowser(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	q := openQueue(t, dir, jobs.Config{MaxTabs: 1})
	seen := func(q *testQueue) string {
		j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/storage.html"), Profile: "pp",
			Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"#seen"}}})
		d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
		return string(d.Result)
	}
	if got := seen(q); !strings.Contains(got, "-|-|-") {
		t.Fatalf("a new profile: %s", got)
	}
	// The job set a cookie; its browser dies at once, as with a killed
	// server: Chromium writes cookies to disk only every 30 s or so.
	killed := killBrowsersOf(t, q.dir.ProfileDir("", "pp"))
	if killed == 0 {
		t.Fatal("no browser of the profile to kill")
	}
	q.close()
	q2 := openQueue(t, dir, jobs.Config{MaxTabs: 1})
	if got := seen(q2); !strings.Contains(got, "L|-|x=C") {
		t.Errorf("the profile after its browser was killed: %s, want its cookie kept", got)
	}
}

// killBrowsersOf SIGKILLs the browser processes (started by this test) whose
// profile is dir, and says how many.
func killBrowsersOf(t *testing.T, dir string) int {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	n := 0
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "--user-data-dir="+dir+"\x00") {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}
