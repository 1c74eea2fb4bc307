package jobs

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// scrubStore is the queue's store with the secrets of each job's tenant
// redacted from what the job's updates write: a login job's password (known
// from its submission), what went into password fields, what a person typed
// in the live view, and the root's values (--secret-env). Summaries, errors,
// final URLs, notes, results, a message's text and a custom job's
// instructions can carry them (a page that echoes a name, a sign-in form sent
// by GET). Only the job's tenant's: a job's status is its tenant's to read,
// and another tenant's values masked in it would answer whether a guess
// written into the job's page is one of them.
type scrubStore struct {
	Store
	reg *secrets.Registry
}

// secretsOf is the registry of tenant's jobs (secrets.Registry.Tenant).
func (q *Queue) secretsOf(tenant string) *secrets.Registry {
	return q.cfg.Browser.Secrets.Tenant(tenant)
}

var _ Store = scrubStore{}

func (s scrubStore) Update(ctx context.Context, id string, from []State, change func(*Job)) (*Job, error) {
	return s.Store.Update(ctx, id, from, s.scrubbed(change))
}

func (s scrubStore) UpdateHeld(ctx context.Context, id, worker string, from []State, change func(*Job)) (*Job, error) {
	return s.Store.UpdateHeld(ctx, id, worker, from, s.scrubbed(change))
}

func (s scrubStore) UpdateExpired(ctx context.Context, id, worker string, change func(*Job)) (*Job, error) {
	return s.Store.UpdateExpired(ctx, id, worker, s.scrubbed(change))
}

// scrubbed is change followed by the redaction of every field a secret can
// reach.
func (s scrubStore) scrubbed(change func(*Job)) func(*Job) {
	return func(j *Job) {
		change(j)
		reg := s.reg.Tenant(j.Tenant)
		if reg.Len() == 0 {
			return
		}
		for _, f := range []*string{&j.Summary, &j.Error, &j.FinalURL, &j.Note, &j.Task.Text, &j.Task.Instructions} {
			*f = reg.Redact(*f)
		}
		if len(j.Result) > 0 {
			j.Result = reg.RedactBytes(j.Result)
		}
	}
}
