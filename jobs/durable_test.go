package jobs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// The data dir's disk fills while a job runs and is still full when the job
// ends (its reserve gone too): the end cannot be recorded, so it is not
// answered — status reads RUNNING and says why, never SUCCEEDED or FAILED.
// The server stops with the end unrecorded and starts again once there is
// room: the job is taken up as after any restart (a navigate job runs again)
// and ends; no state it was answered in is ever taken back. (On SQLite:
// PostgreSQL keeps its data on a disk of its own.)
func TestAnEndIsRecordedBeforeItIsAnswered(t *testing.T) {
	t.Parallel()
	path := mountTmpfs(t, 24<<20)
	q := openQueue(t, path, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/slow?ms=2500"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	q.waitLoading(t, j.ID)
	if err := os.Remove(filepath.Join(path, "reserve")); err != nil {
		t.Fatal(err)
	}
	filler := fill(t, path)
	var answered []jobs.State
	note := func(st jobs.State) {
		if len(answered) == 0 || answered[len(answered)-1] != st {
			answered = append(answered, st)
		}
	}
	testbound.UntilNil(t, "the job's run to end with its end unrecorded", func() error {
		got, err := q.Status(testCtx(t), j.ID)
		if err != nil {
			return err
		}
		note(got.State)
		if got.State.Terminal() {
			t.Fatalf("answered %s (%s) while the disk is full: its end cannot have been recorded", got.State, got.Summary)
		}
		if !strings.Contains(got.Summary, "could not be recorded in the job store yet") || !strings.Contains(got.Summary, "full") {
			return fmt.Errorf("%s: %s", got.State, got.Summary)
		}
		return nil
	})
	q.close()

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	q = openQueue(t, path, jobs.Config{MaxTabs: 1})
	done, seen := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	for _, st := range seen {
		note(st)
	}
	if done.State != jobs.Succeeded || done.Attempt != 2 {
		t.Errorf("after the restart: %s attempt %d %q", done.State, done.Attempt, done.Error)
	}
	for i, st := range answered {
		if st.Terminal() && i != len(answered)-1 {
			t.Errorf("answered %s, then %v: an end was taken back", st, answered[i+1:])
		}
	}
	t.Logf("states answered: %v", answered)
}
