package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// List implements jobstore.Store.
func (s *Store) List(ctx context.Context, f jobstore.Filter) ([]*jobstore.Job, error) {
	q := `SELECT ` + s.cols + ` FROM jobs WHERE rev > ?`
	args := []any{f.Since}
	if len(f.States) > 0 {
		q += ` AND state IN (` + strings.TrimSuffix(strings.Repeat("?, ", len(f.States)), ", ") + `)`
		for _, st := range f.States {
			args = append(args, string(st))
		}
	}
	if f.Worker != "" {
		q += ` AND worker = ?`
		args = append(args, f.Worker)
	}
	if f.Tenant != "" {
		q += ` AND tenant = ?`
		args = append(args, f.Tenant)
	}
	if f.Expired {
		q += ` AND lease_ms > 0 AND lease_ms < ?`
		args = append(args, time.Now().UnixMilli())
	}
	q += ` ORDER BY rev`
	if f.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, f.Limit)
	}
	rows, err := s.rdb.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	defer rows.Close()
	var out []*jobstore.Job
	for rows.Next() {
		j, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}
