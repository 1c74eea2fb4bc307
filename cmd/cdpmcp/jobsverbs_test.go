package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/google/go-cmp/cmp"
)

// jobsScript drives the queue from sh as a cron line or a CI step would:
// every line it prints is "step code", and what a step printed is kept in a
// file of the step's name. $STORE holds the store flags (--data-dir DIR or
// --jobs-db URL), $SITE the fixtures' base URL.
const jobsScript = `
set -u
step() { name=$1; shift; "$@" > "$name.out" 2> "$name.err"; echo "$name $?"; }
job() { printf '{"correlationId":"%s","url":"%s%s","task":%s%s}' "$1" "$SITE" "$2" "$3" "${4:-}"; }
wait_for() { cdpmcp jobs wait $STORE < "$1"; }
cancel_json() { printf '{"jobId":"%s","reason":"%s"}' "$1" "$2" | cdpmcp jobs cancel $STORE; }

# Submit; a retry is answered the same; the same correlationId with other
# arguments, or bad JSON, is refused.
step submit      cdpmcp jobs submit $STORE "$(job nightly-1 /jobs/article.html '{"type":"navigate"}')"
step retry       cdpmcp jobs submit $STORE "$(job nightly-1 /jobs/article.html '{"type":"navigate"}')"
step conflict    cdpmcp jobs submit $STORE "$(job nightly-1 /jobs/article.html '{"type":"navigate"}' ',"priority":9')"
step badjson     cdpmcp jobs submit $STORE '{"correlationId":'
step unknownfield cdpmcp jobs submit $STORE '{"correlationId":"x","url":"http://127.0.0.1/","task":{"type":"navigate"},"colour":"red"}'
# The submit's answer piped into wait: SUCCEEDED exits 0.
step wait        wait_for submit.out
step status      cdpmcp jobs status $STORE "$(sed 's/.*"jobId":"\([^"]*\)".*/\1/' submit.out)"
step notfound    cdpmcp jobs status $STORE job-nope
# A job that needs a person: submit --wait exits 5; a resume goes on; nobody
# signed in, so the person is asked once more (5); still nobody: it fails (3).
step person      cdpmcp jobs submit --wait $STORE "$(job sign-in /jobs/login '{"type":"login"}' ',"handoffAllowed":true')"
person=$(sed 's/.*"jobId":"\([^"]*\)".*/\1/' person.out)
step resume      cdpmcp jobs resume $STORE --note "done, I think" "$person"
step askedagain  cdpmcp jobs wait $STORE "$person"
step resume2     cdpmcp jobs resume $STORE "$person"
step resumed     cdpmcp jobs wait $STORE "$person"
step resumeagain cdpmcp jobs resume $STORE "$person"
# A page that never loads: wait runs out (6); cancel (0); it reads CANCELLED
# (4); a second cancel changes nothing (8).
step hang        cdpmcp jobs submit $STORE "$(job hang-1 /jobs/neverload '{"type":"navigate","timeoutMs":3600000}')"
hang=$(sed 's/.*"jobId":"\([^"]*\)".*/\1/' hang.out)
# Once it runs (a busy machine takes a moment to start it; $LOOKS looks at
# most, 600 scaled as the tests' bounds are, and the timeout step says
# RUNNING or the test fails).
for _ in $(seq "$LOOKS"); do cdpmcp jobs status $STORE "$hang" | grep -q '"status":"RUNNING"' && break; sleep 0.1; done
step timeout     cdpmcp jobs wait $STORE --timeout 1s "$hang"
step cancel      cancel_json "$hang" "nightly window over"
step cancelled   cdpmcp jobs status "$hang" $STORE   # flags after the argument
step cancelagain cdpmcp jobs cancel $STORE "$hang"
step badflag     cdpmcp jobs wait $STORE --bogus "$hang"
`

// The job verbs from a shell script, beside a server that runs the jobs, on
// the SQLite store of its data dir and on a fleet's PostgreSQL: the exit
// codes a script branches on, JSON out, retries answered the same.
func TestJobVerbsInAScript(t *testing.T) {
	t.Parallel()
	want := []string{"submit 0", "retry 0", "conflict 8", "badjson 2", "unknownfield 2", "wait 0", "status 0", "notfound 7",
		"person 5", "resume 0", "askedagain 5", "resume2 0", "resumed 3", "resumeagain 8", "hang 0", "timeout 6", "cancel 0", "cancelled 4", "cancelagain 0", "badflag 2"}
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			// The front doors: the script, and the servers' MCP (on
			// PostgreSQL, a second serve that runs no jobs).
			var (
				flags []string
				doors []*httpServer
			)
			if store == "sqlite" {
				data := filepath.Join(shortTemp(t), "data")
				doors = append(doors, startHTTP(t, "verbs-"+store, "--data-dir", data))
				flags = []string{"--data-dir", data}
			} else {
				db := fleetDB(t)
				doors = append(doors, startHTTP(t, "verbs-"+store, "--jobs-db", db, "--data-dir", t.TempDir(), "--caps", "jobs"),
					startHTTP(t, "verbs-door", "--jobs-db", db, "--data-dir", t.TempDir(), "--caps", "jobs", "--max-tabs", "0"))
				flags = []string{"--jobs-db", db}
			}
			for _, d := range doors {
				defer d.stop(t)
			}
			dir := t.TempDir()
			cmd := exec.CommandContext(testCtx(t, 5*time.Minute), "sh", "-c", jobsScript)
			cmd.Dir = dir
			cmd.Env = append(procEnv(dir), "PATH="+filepath.Dir(binPath)+":"+os.Getenv("PATH"), "STORE="+strings.Join(flags, " "), "SITE="+site.URL(""),
				"LOOKS="+strconv.Itoa(int(600*testbound.Factor())))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the script: %v\n%s", err, out)
			}
			got := strings.Split(strings.TrimSpace(string(out)), "\n")
			read := func(name string) string {
				b, _ := os.ReadFile(filepath.Join(dir, name))
				return string(b)
			}
			if d := cmp.Diff(want, got); d != "" {
				for _, line := range got {
					name := strings.Fields(line)[0]
					t.Logf("%s: stdout %s stderr %s", line, read(name+".out"), read(name+".err"))
				}
				t.Errorf("exit codes (-want +got):\n%s", d)
			}
			checks := []struct{ file, want string }{
				{"submit.out", `"status":"QUEUED"`},
				{"retry.out", `"duplicate":true`},
				{"conflict.err", `correlationId "nightly-1" was already used for job`},
				{"conflict.err", "hint: a new job needs a new correlationId"},
				{"badjson.err", "hint: give it as browser.job.submit takes it"},
				{"unknownfield.err", `unknown field "colour"`},
				{"wait.out", `"status":"SUCCEEDED"`},
				{"notfound.err", "no such job"},
				{"person.out", `"status":"WAITING_FOR_HUMAN"`},
				{"resume.out", `"status":"RESUMED"`},
				{"askedagain.out", "still not signed in after a person's help"},
				{"resumed.out", `"status":"FAILED"`},
				{"timeout.out", `"status":"RUNNING"`},
				{"cancel.out", `"status":"CANCELLED"`},
				{"cancelled.out", `"summary":"cancelled: nightly window over"`},
				{"badflag.err", "flag provided but not defined"},
			}
			for _, c := range checks {
				if !strings.Contains(read(c.file), c.want) {
					t.Errorf("%s lacks %q:\n%s", c.file, c.want, read(c.file))
				}
			}
			id := strings.Split(strings.Split(read("submit.out"), `"jobId":"`)[1], `"`)[0]
			if !strings.Contains(read("retry.out"), id) {
				t.Errorf("the retry answered another job: %s, want %s", read("retry.out"), id)
			}
			// The script's jobs retried through MCP: the same jobs, as they are now.
			ctx := testCtx(t, time.Minute)
			for _, d := range doors {
				c := httpClient(t, ctx, d.url, "")
				for corr, r := range map[string]struct{ path, task, state string }{
					"nightly-1": {"/jobs/article.html", `{"type":"navigate"}`, "SUCCEEDED"},
					"hang-1":    {"/jobs/neverload", `{"type":"navigate","timeoutMs":3600000}`, "CANCELLED"},
				} {
					var task map[string]any
					_ = json.Unmarshal([]byte(r.task), &task)
					a := jobCall(t, ctx, c, "browser.job.submit", map[string]any{"correlationId": corr, "url": site.URL(r.path), "task": task})
					if a["duplicate"] != true || a["currentStatus"] != r.state || a["status"] != "QUEUED" || (corr == "nightly-1" && a["jobId"] != id) {
						t.Errorf("%s retried through MCP: %v, want the script's job, %s", corr, a, r.state)
					}
				}
			}
		})
	}
}

// A wait on a data dir no server runs on says so at once, rather than
// waiting in silence: the job is queued and runs once a server starts.
func TestJobWaitWithoutAServerSaysSo(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	r := runCLI(t, tmp, "jobs", "submit", "--data-dir", data, "--wait", "--timeout", "1s",
		`{"correlationId":"lonely","url":"http://127.0.0.1:1/","task":{"type":"navigate"}}`)
	if r.code != 6 || !strings.Contains(r.stderr, "no cdpmcp serve or worker runs on "+data) || !strings.Contains(r.stdout, `"status":"QUEUED"`) {
		t.Errorf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
