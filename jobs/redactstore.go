package jobs

import (
	"context"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
)

// scrubStore is the queue's store with every secret the browsers know
// redacted from what a job's updates write: what went into password fields,
// what a person typed in the live view. Summaries, errors, final URLs, notes
// and results can carry them (a page that echoes a name, a sign-in form sent
// by GET).
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
		j.Summary, j.Error, j.FinalURL, j.Note = s.reg.Redact(j.Summary), s.reg.Redact(j.Error), s.reg.Redact(j.FinalURL), s.reg.Redact(j.Note)
		if len(j.Result) > 0 {
			j.Result = s.reg.RedactBytes(j.Result)
		}
	})
}

// scrub redacts the job's own password and every secret the browsers know.
func scrub(s, secret string, reg *secrets.Registry) string {
	return reg.Redact(redact(s, secret))
}
