package jobs

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// scrubStore is the queue's store with every secret the registry knows
// redacted from what a job's updates write: a login job's password (known
// from its submission), what went into password fields, what a person typed
// in the live view. Summaries, errors, final URLs, notes, results, a message's
// text and a custom job's instructions can carry them (a page that echoes a
// name, a sign-in form sent by GET).
type scrubStore struct {
	Store
	reg *secrets.Registry
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
		if s.reg.Len() == 0 {
			return
		}
		for _, f := range []*string{&j.Summary, &j.Error, &j.FinalURL, &j.Note, &j.Task.Text, &j.Task.Instructions} {
			*f = s.reg.Redact(*f)
		}
		if len(j.Result) > 0 {
			j.Result = s.reg.RedactBytes(j.Result)
		}
	}
}
