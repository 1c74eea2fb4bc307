package jobs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Submissions are idempotent in Stripe's sense: a tenant's correlationId is
// the idempotency key. The same key with the same arguments is the same job,
// whatever state it is in now, on any process sharing the store; the same key
// with other arguments is a *ConflictError. The store keeps the key unique
// (Store.Create), so two submissions racing through two processes make one
// job.
//
// Nothing stored lets a secret be checked: the key is the tenant and the
// correlationId, both stored in the clear beside it anyway, and arguments are
// compared with the job as stored, whose task never holds its password. A
// retry that differs only in the password's value is the same request (the
// password is not stored, not even as a hash); one that gives a password where
// the first gave none, or the other way round, is not.

// ConflictError says a correlationId was used before with other arguments:
// nothing was queued.
type ConflictError struct {
	CorrelationID string
	JobID         string   // the job the correlationId names
	State         State    // that job's state now
	Fields        []string // the arguments that differ
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("correlationId %q was already used for job %s (%s now) with other arguments (%s differ); nothing was queued",
		e.CorrelationID, e.JobID, e.State, strings.Join(e.Fields, ", "))
}

// Hint says how to fix it.
func (e *ConflictError) Hint() string {
	return fmt.Sprintf("a new job needs a new correlationId (e.g. %q); to read the first job, call browser.job.status {\"correlationId\":%q,\"jobId\":%q} (from a shell: cdpmcp jobs status %s)",
		e.CorrelationID+"-2", e.CorrelationID, e.JobID, e.JobID)
}

// differences names the arguments in which job j, as stored, differs from
// what req (validated, defaults filled in) would store.
func differences(j *Job, req SubmitRequest, prio, maxTabs int) []string {
	var out []string
	add := func(differ bool, name string) {
		if differ {
			out = append(out, name)
		}
	}
	add(j.URL != req.URL, "url")
	add(j.Profile != req.Profile, "profile")
	add(j.MaxTabs != maxTabs, "maxTabs")
	add(j.Priority != prio, "priority")
	add(j.Handoff != req.HandoffAllowed, "handoffAllowed")
	add(j.HasSecret != (req.Task.Password != ""), "task.password (given or not)")
	stored, asked := j.Task, req.Task
	stored.Password, asked.Password = "", ""
	add(!sameJSON(stored, asked), "task")
	return out
}

// sameJSON reports whether a and b encode to the same JSON once compacted
// (a schema's spacing and key order within it are the caller's; an object's
// keys are compared as decoded).
func sameJSON(a, b any) bool {
	ca, errA := canonical(a)
	cb, errB := canonical(b)
	return errA == nil && errB == nil && bytes.Equal(ca, cb)
}

func canonical(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var decoded any
	if err := json.Unmarshal(b, &decoded); err != nil {
		return nil, err
	}
	return json.Marshal(decoded) // maps marshal with sorted keys
}
