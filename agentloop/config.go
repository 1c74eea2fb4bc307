package agentloop

import (
	"context"

	"github.com/cdpmcp/cdpmcp/learned"
)

// Config sets a run's limits and where its record goes.
type Config struct {
	// MaxSteps bounds the model calls of a run (default 30).
	MaxSteps int
	// MaxActions bounds the actions of one step (seed 000's
	// max_actions_per_step, default 10).
	MaxActions int
	// MaxFailures stops a run after this many failed steps in a row (bad
	// answer, unknown action or index, failed action; default 3).
	MaxFailures int
	// Vision sends an annotated screenshot with every step.
	Vision bool
	// RunDir is where runs leave their records, one directory each (default
	// DefaultRunDir()).
	RunDir string
	// OnStep, if set, hears about every step as it ends (for progress).
	OnStep func(StepInfo)
	// AskHuman, if set, offers the model an ask_human action that hands the tab
	// to a person and returns what they said (issue 14's handoff).
	AskHuman func(ctx context.Context, reason string) (string, error)
}

// StepInfo is one step's progress: a short message for a person.
type StepInfo struct {
	Step, MaxSteps int
	Message        string
}

// Task is what the caller asks: the task and optional hints.
type Task struct {
	Task     string
	AddInfos string
}

// Stop reasons.
const (
	StopDone        = "done"
	StopMaxSteps    = "max_steps"
	StopMaxFailures = "max_failures"
	StopModelError  = "model_error"
	StopBrowser     = "browser_error"
	StopCancelled   = "cancelled"
	// StopInterrupted is a run whose process ended before the run did (a
	// kill, a crash): only a report RecoverReports made says it.
	StopInterrupted = "interrupted"
)

// Outcome is how a run ended.
type Outcome struct {
	// Result is the done action's result, or why the run stopped and what it
	// found so far.
	Result  string `json:"result"`
	Success bool   `json:"success"`
	// Steps is the number of model calls made.
	Steps    int    `json:"steps"`
	FinalURL string `json:"finalUrl"`
	// Stop is why the run ended (StopDone, StopMaxSteps…); Reason says more.
	Stop   string `json:"stop"`
	Reason string `json:"reason,omitempty"`
	// RunDir holds the run's record; Report is its HTML report.
	RunDir string `json:"runDir,omitempty"`
	Report string `json:"report,omitempty"`
	// Script is the script.json learned from the run's actions (none when
	// it took no step a script repeats); Learned is that script.
	Script  string          `json:"script,omitempty"`
	Learned *learned.Script `json:"-"`
}

func (c Config) withDefaults() Config {
	if c.MaxSteps <= 0 {
		c.MaxSteps = 30
	}
	if c.MaxActions <= 0 {
		c.MaxActions = 10
	}
	if c.MaxFailures <= 0 {
		c.MaxFailures = 3
	}
	if c.RunDir == "" {
		c.RunDir = DefaultRunDir()
	}
	return c
}
