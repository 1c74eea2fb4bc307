package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// `cdpmcp jobs` with a mistyped state, verb or limit says so (exit 2, the
// nearest name) instead of listing nothing or everything as if answering.
func TestJobsListTypos(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	if r := runCLI(t, tmp, "jobs", "submit", "--data-dir", data, `{"correlationId":"typo-1","url":"`+site.URL("/")+`","task":{"type":"navigate"}}`); r.code != 0 {
		t.Fatalf("submit: exit %d: %s", r.code, r.stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--state", "RUNING"}, `--state: "RUNING" is not a job state; did you mean RUNNING?`},
		{[]string{"--state", "queued,bogus"}, `--state: "BOGUS" is not a job state (states: QUEUED,`},
		{[]string{"stauts", "job-x"}, `no verb "stauts"; did you mean status?`},
		{[]string{"--limit", "-3"}, "--limit -3: give how many"},
	} {
		r := runCLI(t, tmp, append([]string{"jobs", "--data-dir", data}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("cdpmcp jobs %s: exit %d\nstdout: %s\nstderr: %s\nwant exit 2 saying %q, and no list", strings.Join(c.args, " "), r.code, r.stdout, r.stderr, c.want)
		}
	}
	if r := runCLI(t, tmp, "jobs", "--data-dir", data, "--state", "queued,waiting-for-human"); r.code != 0 || !strings.Contains(r.stdout, "QUEUED") {
		t.Errorf("cdpmcp jobs --state queued,waiting-for-human: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
