package jobs

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// Agent runs a custom job's instructions on the job's tab: the agent loop,
// wired in by cmd. progress reports how far it got (0..1) with a short summary.
type Agent interface {
	Run(ctx context.Context, tab *cdpclient.Page, instructions string, progress func(fraction float64, summary string)) (*AgentResult, error)
}

// AgentResult is what an agent answers.
type AgentResult struct {
	// Success says the agent finished the task; false with a Summary of why.
	Success bool
	Summary string
	// Result is the agent's answer as JSON (a string or an object).
	Result json.RawMessage
}

// NeedsHumanError is returned by a task or an agent when only a person can go
// on (a CAPTCHA, a password nobody gave). A job with handoffAllowed then waits
// for one; otherwise it fails with Reason.
type NeedsHumanError struct{ Reason string }

func (e *NeedsHumanError) Error() string { return "a person is needed: " + e.Reason }

// Handoff offers a waiting job's tab to a person (the live view, wired in by
// cmd). The job's tab stays open and alive while it waits.
type Handoff interface {
	// Offer returns the URL where a person can take over tab, for job, which
	// is waiting because of reason.
	Offer(ctx context.Context, job *Job, tab *cdpclient.Page, reason string) (url string, err error)
	// Withdraw ends the offer for a job that resumed, failed or was cancelled.
	Withdraw(jobID string)
}
