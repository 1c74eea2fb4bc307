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
	return s.Store.Update(ctx, id, from, func(j *Job) {
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
	})
}
