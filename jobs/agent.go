package jobs

import (
	"context"
	"encoding/json"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/learned"
)

// Agent runs a custom job's instructions on the job's tab: the agent loop,
// wired in by cmd.
type Agent interface {
	Run(ctx context.Context, tab *cdpclient.Page, instructions string, hooks AgentHooks) (*AgentResult, error)
}

// AgentHooks connect an agent's run to its job.
type AgentHooks struct {
	// Progress reports how far the run got (0..1) with a short summary.
	Progress func(fraction float64, summary string)
	// AskHuman hands the job's tab to a person for reason and returns what
	// they said once they handed it back; the job waits for them meanwhile.
	// Nil when the job does not allow a handoff.
	AskHuman func(ctx context.Context, reason string) (string, error)
	// MaxSteps, when above 0, bounds the run's model calls below the
	// agent's own limit (a script job's redo of one step).
	MaxSteps int
	// RunDir, when set, is where the run leaves its record, report and
	// learned script: the job's own artifacts folder, its tenant's.
	RunDir string
}

// AgentResult is what an agent answers.
type AgentResult struct {
	// Success says the agent finished the task; false with a Summary of why.
	Success bool
	Summary string
	// Result is the agent's answer as JSON (a string or an object).
	Result json.RawMessage
	// Script is what the run learned (nil when it took no step a script
	// repeats); ModelCalls counts its model calls.
	Script     *learned.Script
	ModelCalls int
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
	// is waiting because of reason. ctx's deadline is when the wait ends (the
	// offer should expire then); ctx itself ends when Offer returns. A person
	// who is done calls Queue.Resume, one who gives up Queue.GiveUp.
	Offer(ctx context.Context, job *Job, tab *cdpclient.Page, reason string) (url string, err error)
	// Withdraw ends the offer for a job that resumed, failed or was cancelled.
	Withdraw(jobID string)
}
