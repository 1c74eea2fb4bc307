package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// A stdio serve whose client went away (stdin closed) drains its jobs too;
// there the first SIGTERM (the client's, or a service manager's) ends the
// wait, and the job goes back to the queue, to run again at the next start
// without counting the run it lost.
func TestStdioServeDrainEndsOnTheFirstSignalAfterStdinCloses(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	marker := newMarker("drain-stdio")
	cmd := exec.Command(binPath, "serve", "--data-dir", data, "--job-grace", "10m", "--browser-arg="+marker)
	cmd.Env = procEnv(shortTemp(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr)
		}
	})
	sub := runCLI(t, tmp, "jobs", "submit", "--data-dir", data, `{"correlationId":"stdio-hang","url":"`+fmtURL("/jobs/hang?n=%d", markers.Add(1))+`","task":{"type":"navigate","timeoutMs":3600000}}`)
	if sub.code != 0 {
		t.Fatalf("submit: exit %d: %s", sub.code, sub.stderr)
	}
	id := jsonField(t, sub.stdout, "jobId")
	testbound.Until(t, "the job to run", func() bool {
		return strings.Contains(runCLI(t, tmp, "jobs", "status", "--data-dir", data, id).stdout, `"status":"RUNNING"`)
	})
	_ = stdin.Close()
	testbound.Until(t, "the server to drain", func() bool { return strings.Contains(stderr.String(), "taking no new jobs") })
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(testbound.Bound()):
		t.Fatalf("the serve still drains %s after a SIGTERM (its stdin closed first)", testbound.Bound())
	}
	st := runCLI(t, tmp, "jobs", "status", "--data-dir", data, id)
	if !strings.Contains(st.stdout, "queued to run again, handed back: the server stopped before it finished") || strings.Contains(st.stdout, `"attempt":`) {
		t.Errorf("the job the serve stopped under: %s\nwant it handed back (queued to run again), its lost run not counted", st.stdout)
	}
}
