package jobstore

import (
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// State is where a job is in its life. States only move forward:
// QUEUED → DISPATCHED → RUNNING → (WAITING_FOR_HUMAN → RESUMED → RUNNING) →
// SUCCEEDED | FAILED | CANCELLED. The one way back is a navigate or extract
// job whose browser died under it: RUNNING → QUEUED, to run again. An end
// is for good. The stores hold to this (Store.Update).
type State string

// The job states of seed 002.
const (
	Queued          State = "QUEUED"
	Dispatched      State = "DISPATCHED"
	Running         State = "RUNNING"
	WaitingForHuman State = "WAITING_FOR_HUMAN"
	Resumed         State = "RESUMED"
	Succeeded       State = "SUCCEEDED"
	Failed          State = "FAILED"
	Cancelled       State = "CANCELLED"
)

// Terminal reports whether a job in state s is finished for good.
func (s State) Terminal() bool { return s == Succeeded || s == Failed || s == Cancelled }

// Unfinished lists the states of jobs that are not finished.
var Unfinished = []State{Queued, Dispatched, Running, WaitingForHuman, Resumed}

// next lists the states each state may move to.
var next = map[State][]State{
	Queued:          {Dispatched, Cancelled, Failed},
	Dispatched:      {Running, Cancelled, Failed},
	Running:         {WaitingForHuman, Succeeded, Failed, Cancelled, Queued},
	WaitingForHuman: {Resumed, Succeeded, Failed, Cancelled},
	Resumed:         {Running, Failed, Cancelled},
}

// CanMove reports whether a job may go from state from to state to.
func CanMove(from, to State) bool { return slices.Contains(next[from], to) }

// Before lists the states a job may be in to be changed into state s: s
// itself, and those from which it may move to s. A store's update is guarded
// by them (UPDATE … WHERE state IN (Before(new))), so no write, however it
// races, moves a state back or out of an end.
func Before(s State) []State {
	out := []State{s}
	for _, from := range Unfinished {
		if from != s && CanMove(from, s) {
			out = append(out, from)
		}
	}
	return out
}

// Task types.
const (
	TaskNavigate = "navigate"
	TaskExtract  = "extract"
	TaskLogin    = "login"
	TaskMessage  = "message"
	TaskCustom   = "custom"
	TaskScript   = "script"
)

// Task is what a job does, as submitted (seed 002's task object plus the
// fields its types need). Secrets (Password) are never stored: see Job.Task.
type Task struct {
	Type      string          `json:"type"`
	Selectors []string        `json:"selectors,omitempty"`
	Extract   json.RawMessage `json:"extract,omitempty"`
	// Text is what a message job types into selectors[0].
	Text string `json:"text,omitempty"`
	// Instructions are what a custom job's agent is asked to do.
	Instructions string `json:"instructions,omitempty"`
	// Username and Password sign a login job in; Password is kept in memory
	// only and never stored, logged or answered.
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
	// Script is the learned script a script job replays (script.json's
	// content); Params are its params' values, secrets never among them
	// (they travel as Password, in memory only: jobs/scripttask.go).
	Script json.RawMessage   `json:"script,omitempty"`
	Params map[string]string `json:"params,omitempty"`
	// Video records the tab as a video artifact.
	Video bool `json:"video,omitempty"`
	// TimeoutMs bounds the job's run (default: the queue's job timeout).
	TimeoutMs int `json:"timeoutMs,omitempty"`
}

// Artifacts are the files a job left, as absolute paths.
type Artifacts struct {
	Trace      string `json:"trace,omitempty"`
	Screenshot string `json:"screenshot,omitempty"`
	Video      string `json:"video,omitempty"`
	NetworkLog string `json:"networkLog,omitempty"`
}

// Job is one unit of work and everything known about it.
type Job struct {
	ID string
	// Tenant is who submitted it (internal/tenant): only requests acting for
	// the same tenant see it, cancel or resume it; its profile and artifacts
	// are that tenant's.
	Tenant        string
	Seq           int64  // order of submission, FIFO within a priority
	Key           string // idempotency key: correlation id and arguments
	CorrelationID string
	URL           string
	Profile       string
	MaxTabs       int
	Priority      int
	Handoff       bool // handoffAllowed
	Task          Task // without secrets
	// HasSecret says the task carried a password, held in memory only.
	HasSecret bool

	State      State
	Progress   float64
	Summary    string
	FinalURL   string
	Artifacts  Artifacts
	Error      string
	Result     json.RawMessage // the extract result, the agent's answer
	HandoffURL string
	Note       string // the note given with resume
	Attempt    int    // runs started; more than 1 after a restart re-ran it
	// Effects is set before a job does something that must not happen twice
	// (a message's send); a job with Effects is never run again.
	Effects bool

	// Worker is the process that holds the job (or held it last), Lease
	// when its hold ends unless renewed (zero: no process holds it), Origin
	// the process that took the submission (which alone knows a secret).
	Worker string
	Lease  time.Time
	Origin string

	Created  time.Time
	Started  time.Time // zero until it first runs
	Finished time.Time // zero until it ends
	Rev      int64     // store revision of the last change, for tailing
}

// Clone returns a deep enough copy for handing out.
func (j *Job) Clone() *Job {
	c := *j
	c.Task.Selectors = slices.Clone(j.Task.Selectors)
	c.Task.Params = maps.Clone(j.Task.Params)
	return &c
}
