package postgres

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/jackc/pgx/v5"
)

const columns = `id, seq, idem_key, correlation_id, url, profile, max_tabs, priority, handoff, task, has_secret,
	state, progress, summary, final_url, artifacts, error, result, handoff_url, note, attempt, effects,
	created, started, finished, rev, worker, lease_until, origin, tenant`

// insertColumns are the columns Create writes (seq and rev come from sequences).
var insertColumns = strings.Replace(strings.Replace(columns, "seq, ", "", 1), "rev, ", "", 1)

// updateSet is "idem_key = $2, …" for the columns Update writes; $1 is the id.
var updateSet = func() string {
	var out []string
	for i, n := range strings.Split(insertColumns, ",")[1:] {
		out = append(out, fmt.Sprintf("%s = $%d", strings.TrimSpace(n), i+2))
	}
	return strings.Join(out, ", ")
}()

// placeholders is "$1, $2, …" for insertColumns.
var placeholders = func() string {
	n := len(strings.Split(insertColumns, ","))
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("$%d", i+1)
	}
	return strings.Join(out, ", ")
}()

func scanOne(row pgx.Row) (*jobstore.Job, error) {
	j, err := scan(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, jobstore.ErrNotFound
	}
	return j, err
}

func scan(r pgx.Row, extra ...any) (*jobstore.Job, error) {
	var (
		j                              jobstore.Job
		task, artifacts, result, state string
		created                        time.Time
		started, finished, lease       *time.Time
	)
	dest := []any{&j.ID, &j.Seq, &j.Key, &j.CorrelationID, &j.URL, &j.Profile, &j.MaxTabs, &j.Priority, &j.Handoff, &task, &j.HasSecret,
		&state, &j.Progress, &j.Summary, &j.FinalURL, &artifacts, &j.Error, &result, &j.HandoffURL, &j.Note, &j.Attempt, &j.Effects,
		&created, &started, &finished, &j.Rev, &j.Worker, &lease, &j.Origin, &j.Tenant}
	if err := r.Scan(append(dest, extra...)...); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, err
		}
		return nil, fmt.Errorf("read job: %w", err)
	}
	j.State = jobstore.State(state)
	if err := jobstore.LoadStoredFields(&j, task, artifacts, result); err != nil {
		return nil, err
	}
	j.Created, j.Started, j.Finished, j.Lease = created, deref(started), deref(finished), deref(lease)
	return &j, nil
}

// values returns a job's insertColumns.
func values(j *jobstore.Job) ([]any, error) {
	tb, ab, err := jobstore.StoredFields(j)
	if err != nil {
		return nil, err
	}
	return []any{j.ID, j.Key, j.CorrelationID, j.URL, j.Profile, j.MaxTabs, j.Priority, j.Handoff, tb, j.HasSecret,
		string(j.State), j.Progress, j.Summary, j.FinalURL, ab, j.Error, string(j.Result), j.HandoffURL, j.Note, j.Attempt, j.Effects,
		ms(j.Created), opt(j.Started), opt(j.Finished), j.Worker, opt(j.Lease), j.Origin, j.Tenant}, nil
}

// ms keeps times to the millisecond, as the SQLite store does.
func ms(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

func opt(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = ms(t)
	return &t
}

func deref(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}
