package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/mark3labs/mcp-go/mcp"
)

// How long browser.job.wait waits: by default, under a client's usual
// patience (about a minute); at most, as a call and as a task.
const (
	defaultJobWait = 25 * time.Second
	maxJobWait     = 10 * time.Minute
	maxJobWaitTask = time.Hour
)

// waitJob is browser.job.wait: a long poll on a job, answered as
// browser.job.status once the job ends or waits for a person, or when the
// wait runs out (then as it is).
func (s *Server) waitJob(ctx context.Context, q *jobs.Queue, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		idArgs
		TimeoutMs int `json:"timeoutMs"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if _, err := checkIDArgs(a.idArgs); err != nil {
		return nil, err
	}
	limit := maxJobWait
	if inTask(ctx) {
		limit = maxJobWaitTask
	}
	wait := defaultJobWait
	switch {
	case a.TimeoutMs < 0:
		return nil, &jobs.InputError{Msg: fmt.Sprintf("timeoutMs %d is negative", a.TimeoutMs), Hint: "give milliseconds, e.g. 25000"}
	case time.Duration(a.TimeoutMs)*time.Millisecond > limit:
		return nil, &jobs.InputError{Msg: fmt.Sprintf("timeoutMs %d is more than %d", a.TimeoutMs, limit.Milliseconds()),
			Hint: "wait in turns, or call browser.job.wait as an MCP task (up to an hour)"}
	case a.TimeoutMs > 0:
		wait = time.Duration(a.TimeoutMs) * time.Millisecond
	}
	// A store that does not answer now may by the wait's end: the wait
	// checks the correlationId on the job it gets.
	checked := true
	if _, err := ownJob(ctx, q, a.idArgs); jobstore.Unreachable(err) {
		checked = false
	} else if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	j, err := q.Wait(wctx, a.JobID)
	if err != nil && !(j != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil) {
		return nil, err
	}
	if !checked {
		if _, err := ownJob(ctx, q, a.idArgs); err != nil {
			return nil, err
		}
	}
	return statusResult(j)
}
