package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/mark3labs/mcp-go/mcp"
)

// submitAnswer is browser.job.submit's output.
type submitAnswer struct {
	CorrelationID string `json:"correlationId"`
	JobID         string `json:"jobId"`
	Status        string `json:"status"`
	CreatedAt     string `json:"createdAt"`
	Duplicate     bool   `json:"duplicate,omitempty"`
	CurrentStatus string `json:"currentStatus,omitempty"`
}

func (s *Server) submitJob(ctx context.Context, q *jobs.Queue, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var req jobs.SubmitRequest
	if err := decodeArgs(raw, &req); err != nil {
		return nil, err
	}
	j, created, err := q.Submit(ctx, req)
	if err != nil {
		return nil, err
	}
	if req.HandoffAllowed {
		s.submitters.note(ctx, j.ID) // its user is asked when the job needs a person
	}
	return structured(SubmitAnswer(j, created))
}

// SubmitAnswer is browser.job.submit's answer for job j (created false: a
// retry). Stripe's rule: a retry gets the first answer (status QUEUED, as
// seed 002 has it) with the job's state now beside it, in any state.
func SubmitAnswer(j *jobs.Job, created bool) any {
	a := submitAnswer{CorrelationID: j.CorrelationID, JobID: j.ID, Status: string(jobs.Queued), CreatedAt: stamp(j.Created)}
	if !created {
		a.Duplicate, a.CurrentStatus = true, string(j.State)
	}
	return a
}

// StatusAnswer is browser.job.status's answer for job j.
func StatusAnswer(j *jobs.Job) any { return statusOf(j.CorrelationID, j) }

// ChangeAnswer is browser.job.cancel's and browser.job.resume's answer for
// job j.
func ChangeAnswer(j *jobs.Job) any {
	return changeAnswer{CorrelationID: j.CorrelationID, JobID: j.ID, Status: string(j.State), FinishedAt: stamp(j.Finished)}
}

// ownJob returns the job a, naming it, asks about, refusing one submitted
// under another correlationId: an answer never echoes an id the job does not
// have, and no call acts on a job the caller mixed up with another.
func ownJob(ctx context.Context, q *jobs.Queue, a idArgs) (*jobs.Job, error) {
	j, err := q.Status(ctx, a.JobID)
	if err != nil {
		return nil, err
	}
	if j.CorrelationID != a.CorrelationID {
		return nil, &jobs.InputError{Msg: fmt.Sprintf("job %s was submitted with correlationId %q, not %q; nothing changed", j.ID, j.CorrelationID, a.CorrelationID),
			Hint: "pass the correlationId and jobId that browser.job.submit answered together"}
	}
	return j, nil
}

// statusAnswer is browser.job.status's output.
type statusAnswer struct {
	CorrelationID string           `json:"correlationId"`
	JobID         string           `json:"jobId"`
	Status        string           `json:"status"`
	Progress      float64          `json:"progress"`
	Summary       string           `json:"summary,omitempty"`
	FinalURL      string           `json:"finalUrl,omitempty"`
	Artifacts     *jobs.Artifacts  `json:"artifacts,omitempty"`
	Error         string           `json:"error,omitempty"`
	Type          string           `json:"type"`
	Result        *json.RawMessage `json:"result,omitempty"`
	HandoffURL    string           `json:"handoffUrl,omitempty"`
	CreatedAt     string           `json:"createdAt"`
	StartedAt     string           `json:"startedAt,omitempty"`
	FinishedAt    string           `json:"finishedAt,omitempty"`
	Attempt       int              `json:"attempt,omitempty"`
	Worker        string           `json:"worker,omitempty"`
}

func jobStatus(ctx context.Context, q *jobs.Queue, raw json.RawMessage) (*mcp.CallToolResult, error) {
	a, err := readIDArgs(raw)
	if err != nil {
		return nil, err
	}
	j, err := ownJob(ctx, q, a)
	if err != nil {
		return nil, err
	}
	return statusResult(j)
}

// statusResult answers with job j's status, and links to its artifacts.
func statusResult(j *jobs.Job) (*mcp.CallToolResult, error) {
	res, err := structured(statusOf(j.CorrelationID, j))
	if err == nil {
		res.Content = append(res.Content, jobArtifactLinks(j)...)
	}
	return res, err
}

func statusOf(correlationID string, j *jobs.Job) statusAnswer {
	s := statusAnswer{
		CorrelationID: correlationID, JobID: j.ID, Status: string(j.State), Progress: j.Progress, Summary: j.Summary,
		FinalURL: j.FinalURL, Error: j.Error, Type: j.Task.Type, HandoffURL: j.HandoffURL,
		CreatedAt: stamp(j.Created), StartedAt: stamp(j.Started), FinishedAt: stamp(j.Finished), Attempt: j.Attempt,
		Worker: j.Worker,
	}
	if j.State == jobs.Succeeded {
		s.Progress = 1
	}
	if j.Artifacts != (jobs.Artifacts{}) {
		s.Artifacts = &j.Artifacts
	}
	if len(j.Result) > 0 {
		r := j.Result
		s.Result = &r
	}
	return s
}

// changeAnswer is browser.job.cancel's and browser.job.resume's output.
type changeAnswer struct {
	CorrelationID string `json:"correlationId"`
	JobID         string `json:"jobId"`
	Status        string `json:"status"`
	FinishedAt    string `json:"finishedAt,omitempty"`
}

func cancelJob(ctx context.Context, q *jobs.Queue, raw json.RawMessage) (*mcp.CallToolResult, error) {
	a, err := readIDArgs(raw)
	if err != nil {
		return nil, err
	}
	if _, err := ownJob(ctx, q, a); err != nil {
		return nil, err
	}
	j, err := q.Cancel(ctx, a.JobID, a.Reason)
	if err != nil {
		return nil, err
	}
	return structured(changeAnswer{CorrelationID: a.CorrelationID, JobID: j.ID, Status: string(j.State), FinishedAt: stamp(j.Finished)})
}

func resumeJob(ctx context.Context, q *jobs.Queue, raw json.RawMessage) (*mcp.CallToolResult, error) {
	a, err := readIDArgs(raw)
	if err != nil {
		return nil, err
	}
	if _, err := ownJob(ctx, q, a); err != nil {
		return nil, err
	}
	j, err := q.Resume(ctx, a.JobID, a.Note)
	if err != nil {
		return nil, err
	}
	return structured(changeAnswer{CorrelationID: a.CorrelationID, JobID: j.ID, Status: string(j.State)})
}

// extractAnswer is browser.snapshot.extract_structured's output.
type extractAnswer struct {
	CorrelationID string            `json:"correlationId"`
	FinalURL      string            `json:"finalUrl,omitempty"`
	Data          map[string]any    `json:"data"`
	Artifacts     map[string]string `json:"artifacts"`
	Sources       map[string]string `json:"sources,omitempty"`
	Missing       []string          `json:"missing,omitempty"`
	Notes         []string          `json:"notes,omitempty"`
}

// extractStructured answers with what the page states and, as job status
// links a job's artifacts, a resource_link to its screenshot: a client
// over HTTP cannot read the server's path.
func (s *Server) extractStructured(ctx context.Context, q *jobs.Queue, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var req jobs.ExtractRequest
	if err := decodeArgs(raw, &req); err != nil {
		return nil, err
	}
	x, err := q.Extract(ctx, req)
	if err != nil {
		return nil, err
	}
	a := extractAnswer{CorrelationID: req.CorrelationID, FinalURL: x.FinalURL, Data: x.Result.Data, Artifacts: map[string]string{},
		Sources: x.Result.Sources, Missing: x.Result.Missing, Notes: x.Result.Notes}
	if x.Screenshot != "" {
		a.Artifacts["screenshot"] = x.Screenshot
	}
	res, err := structured(a)
	if err == nil && x.Screenshot != "" {
		res.Content = append(res.Content, s.links.offer(ctx, x.Screenshot))
	}
	return res, err
}

// stamp is a time in an answer, to the millisecond as the stores keep it: a
// cancel's answer, made from the job before it was stored, and a later
// status of it say the same finishedAt.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano)
}
