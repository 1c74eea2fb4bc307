package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

const columns = `id, seq, idem_key, correlation_id, url, profile, max_tabs, priority, handoff, task, has_secret,
	state, progress, summary, final_url, artifacts, error, result, handoff_url, note, attempt, effects,
	created_ms, started_ms, finished_ms, rev, tenant, worker, lease_ms, origin`

// ncolumns is how many columns there are.
var ncolumns = len(strings.Split(columns, ","))

// updateSet is "id = ?, seq = ?, …" for every column.
var updateSet = func() string {
	names := strings.Split(columns, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n) + " = ?"
	}
	return strings.Join(names, ", ")
}()

type scanner interface{ Scan(dest ...any) error }

func scanOne(row *sql.Row) (*jobstore.Job, error) {
	j, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, jobstore.ErrNotFound
	}
	return j, err
}

func scan(r scanner) (*jobstore.Job, error) {
	var (
		j                                     jobstore.Job
		task, artifacts, result, state        string
		handoff, hasSecret, effects           bool
		createdMs, startedMs, finishedMs, seq int64
		leaseMs                               int64
	)
	err := r.Scan(&j.ID, &seq, &j.Key, &j.CorrelationID, &j.URL, &j.Profile, &j.MaxTabs, &j.Priority, &handoff, &task, &hasSecret,
		&state, &j.Progress, &j.Summary, &j.FinalURL, &artifacts, &j.Error, &result, &j.HandoffURL, &j.Note, &j.Attempt, &effects,
		&createdMs, &startedMs, &finishedMs, &j.Rev, &j.Tenant, &j.Worker, &leaseMs, &j.Origin)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		return nil, fmt.Errorf("read job: %w", err)
	}
	j.Seq, j.State, j.Handoff, j.HasSecret, j.Effects = seq, jobstore.State(state), handoff, hasSecret, effects
	if err := jobstore.LoadStoredFields(&j, task, artifacts, result); err != nil {
		return nil, err
	}
	j.Created, j.Started, j.Finished, j.Lease = fromMs(createdMs), fromMs(startedMs), fromMs(finishedMs), fromMs(leaseMs)
	return &j, nil
}

// values returns a job's columns in the order of columns.
func values(j *jobstore.Job) ([]any, error) {
	tb, ab, err := jobstore.StoredFields(j)
	if err != nil {
		return nil, err
	}
	return []any{j.ID, j.Seq, j.Key, j.CorrelationID, j.URL, j.Profile, j.MaxTabs, j.Priority, j.Handoff, tb, j.HasSecret,
		string(j.State), j.Progress, j.Summary, j.FinalURL, ab, j.Error, string(j.Result), j.HandoffURL, j.Note, j.Attempt, j.Effects,
		ms(j.Created), ms(j.Started), ms(j.Finished), j.Rev, j.Tenant, j.Worker, ms(j.Lease), j.Origin}, nil
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMs(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}
