package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// Jobs belong to the tenant that submitted them: the same correlation id and
// arguments from another tenant are a job of its own; another tenant's job id
// is unknown to status, cancel and resume; a profile of the same name is
// another browser state; artifacts are under the tenant's folder.
func TestJobsBelongToTheirTenant(t *testing.T) {
	t.Parallel()
	onBothStores(t, testJobsBelongToTheirTenant)
}

func testJobsBelongToTheirTenant(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	alice, bob := tenant.With(testCtx(t), "alice"), tenant.With(testCtx(t), "bob")
	local := testCtx(t)
	submit := func(ctx context.Context, req jobs.SubmitRequest) (*jobs.Job, bool) {
		t.Helper()
		j, created, err := q.Submit(ctx, req)
		if err != nil {
			t.Fatalf("Submit: %v", err)
		}
		return j, created
	}
	wait := func(ctx context.Context, id string) *jobs.Job {
		t.Helper()
		var j *jobs.Job
		testbound.UntilNil(t, "job "+id+" to finish", func() error {
			var err error
			if j, err = q.Status(tenant.With(testCtx(t), tenant.Of(ctx)), id); err != nil {
				t.Fatalf("Status: %v", err)
			}
			if !j.State.Terminal() {
				return fmt.Errorf("still %s (%s)", j.State, j.Summary)
			}
			return nil
		})
		return j
	}

	// The same request from three tenants: three jobs.
	same := jobs.SubmitRequest{CorrelationID: "same", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}}
	a, created := submit(alice, same)
	if !created || a.Tenant != "alice" {
		t.Fatalf("alice's job: created %v, tenant %q", created, a.Tenant)
	}
	if again, created := submit(alice, same); created || again.ID != a.ID {
		t.Errorf("alice's own duplicate: %s created %v, want %s", again.ID, created, a.ID)
	}
	b, created := submit(bob, same)
	if !created || b.ID == a.ID {
		t.Fatalf("bob's same request gave alice's job %s (created %v)", b.ID, created)
	}
	if _, created := submit(local, same); !created {
		t.Error("the local user's same request found another tenant's job")
	}
	for _, who := range []context.Context{bob, local} {
		if _, err := q.Status(who, a.ID); !errors.Is(err, jobstore.ErrNotFound) {
			t.Errorf("status of alice's job for %q: %v, want ErrNotFound", tenant.Of(who), err)
		}
		if _, err := q.Cancel(who, a.ID, "mine now"); !errors.Is(err, jobstore.ErrNotFound) {
			t.Errorf("cancel of alice's job for %q: %v, want ErrNotFound", tenant.Of(who), err)
		}
		if _, err := q.Resume(who, a.ID, ""); !errors.Is(err, jobstore.ErrNotFound) {
			t.Errorf("resume of alice's job for %q: %v, want ErrNotFound", tenant.Of(who), err)
		}
	}
	done := wait(alice, a.ID)
	if done.State != jobs.Succeeded {
		t.Fatalf("alice's job: %s %s", done.State, done.Error)
	}
	if want := filepath.Join(q.dir.Path, "tenants", "alice", "artifacts", a.ID); filepath.Dir(done.Artifacts.Trace) != want {
		t.Errorf("alice's artifacts in %s, want %s", filepath.Dir(done.Artifacts.Trace), want)
	}

	// Alice signs in in her profile "shop".
	in, _ := submit(alice, jobs.SubmitRequest{CorrelationID: "sign-in", URL: site.MagicLink(), Profile: "shop", Task: jobs.Task{Type: jobs.TaskNavigate}})
	if j := wait(alice, in.ID); j.State != jobs.Succeeded {
		t.Fatalf("alice's sign-in: %s %s", j.State, j.Error)
	}

	// Each one's profile "shop" is their own: only alice's is signed in.
	state := func(ctx context.Context) string {
		j, _ := submit(ctx, jobs.SubmitRequest{CorrelationID: "state-" + tenant.Of(ctx), URL: site.URL("/jobs/account"), Profile: "shop",
			Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"#state"}}})
		return string(wait(ctx, j.ID).Result)
	}
	if got := state(alice); !strings.Contains(got, "Signed in") {
		t.Errorf("alice's profile: %s, want signed in", got)
	}
	if got := state(bob); !strings.Contains(got, "Not signed in") {
		t.Errorf("bob's profile of the same name: %s, want not signed in", got)
	}
}
