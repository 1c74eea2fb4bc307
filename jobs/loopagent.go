package jobs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
)

// LoopAgent runs custom jobs with the agent loop (run_browser_agent's) on a
// model the server was configured with: a job runs in the background, with no
// client whose model could be asked.
type LoopAgent struct {
	Model agentloop.Model
	Loop  agentloop.Config
	// ReadOnly and Origins are the server's policy, held inside the loop.
	ReadOnly bool
	Origins  *origins.List
}

var _ Agent = (*LoopAgent)(nil)

// Run performs instructions on the job's tab, in its browser context.
func (a *LoopAgent) Run(ctx context.Context, tab *cdpclient.Page, instructions string, hooks AgentHooks) (*AgentResult, error) {
	env := tabEnv(tab, a.ReadOnly, a.Origins) // the loop acts on the job's tab
	cfg := a.Loop
	cfg.OnStep = func(s agentloop.StepInfo) {
		if s.MaxSteps > 0 && hooks.Progress != nil {
			hooks.Progress(float64(s.Step)/float64(s.MaxSteps), s.Message)
		}
	}
	// ask_human is offered only to jobs a person may help.
	cfg.AskHuman = hooks.AskHuman
	if hooks.MaxSteps > 0 && (cfg.MaxSteps <= 0 || hooks.MaxSteps < cfg.MaxSteps) {
		cfg.MaxSteps = hooks.MaxSteps
	}
	if hooks.RunDir != "" {
		cfg.RunDir = hooks.RunDir
	}
	out, err := agentloop.Run(ctx, env, a.Model, cfg, agentloop.Task{Task: instructions})
	if err != nil {
		return nil, err
	}
	result, err := json.Marshal(out.Result)
	if err != nil {
		return nil, err
	}
	summary := out.Result
	if !out.Success {
		summary = fmt.Sprintf("the agent stopped (%s): %s", out.Stop, out.Reason)
	}
	if out.Report != "" {
		summary += " (report: " + out.Report + ")"
	}
	if out.Script != "" {
		summary += " (script: " + out.Script + ")"
	}
	return &AgentResult{Success: out.Success, Summary: summary, Result: result, Script: out.Learned, ModelCalls: out.Steps}, nil
}
