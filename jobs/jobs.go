// Package jobs is the job horde of seed 002: jobs submitted by clients, kept in a
// persistent store, scheduled by priority onto browser tabs under a server-wide
// tab limit, run in named browser profiles, and leaving artifacts. The store's
// contract and its types are jobs/jobstore's, its drivers subpackages
// (jobs/sqlite, jobs/postgres); the browser work goes through cdpclient.
package jobs

import "github.com/cdpmcp/cdpmcp/jobs/jobstore"

// A job and what it is made of (its state, task and artifacts), with the store
// that keeps it: the words callers of the queue use at every turn, named here
// too so that they read jobs.Job, jobs.Succeeded, jobs.TaskNavigate. The rest
// of the contract (Filter, Worker, Event, the store's errors, its keys) goes by
// its jobstore name.
type (
	// Store is jobstore.Store.
	Store = jobstore.Store
	// Job is jobstore.Job.
	Job = jobstore.Job
	// State is jobstore.State.
	State = jobstore.State
	// Task is jobstore.Task.
	Task = jobstore.Task
	// Artifacts is jobstore.Artifacts.
	Artifacts = jobstore.Artifacts
)

// The job states (jobstore's).
const (
	Queued          = jobstore.Queued
	Dispatched      = jobstore.Dispatched
	Running         = jobstore.Running
	WaitingForHuman = jobstore.WaitingForHuman
	Resumed         = jobstore.Resumed
	Succeeded       = jobstore.Succeeded
	Failed          = jobstore.Failed
	Cancelled       = jobstore.Cancelled
)

// Task types (jobstore's).
const (
	TaskNavigate = jobstore.TaskNavigate
	TaskExtract  = jobstore.TaskExtract
	TaskLogin    = jobstore.TaskLogin
	TaskMessage  = jobstore.TaskMessage
	TaskCustom   = jobstore.TaskCustom
	TaskScript   = jobstore.TaskScript
)
