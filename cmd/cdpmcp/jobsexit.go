package main

import (
	"errors"
	"fmt"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// The verbs' exit codes (docs/jobs.md#from-a-shell).
const (
	exitOK        = 0 // submitted (a retry answered too); the job SUCCEEDED; cancelled or resumed
	exitError     = 1 // cdpmcp could not do it (the store cannot be reached or read)
	exitUsage     = 2 // bad flags, arguments or JSON, or a job refused at submit: nothing changed
	exitFailed    = 3 // the job FAILED
	exitCancelled = 4 // the job was CANCELLED
	exitWaiting   = 5 // the job waits for a person (WAITING_FOR_HUMAN): resume it once they are done
	exitPending   = 6 // the job has not ended yet (status; wait when --timeout ran out or it was interrupted)
	exitNotFound  = 7 // no such job (for this tenant)
	exitConflict  = 8 // the correlationId names a job with other arguments, or the job's state refuses the cancel or resume: nothing changed
)

// exitErr ends a verb with its exit code; urfave/cli prints its message (if
// any) to stderr and exits with it.
type exitErr struct {
	code int
	msg  string
}

func (e *exitErr) Error() string { return e.msg }
func (e *exitErr) ExitCode() int { return e.code }

// stateCode is the exit code that says a job's state.
func stateCode(s jobs.State) int {
	switch s {
	case jobs.Succeeded:
		return exitOK
	case jobs.Failed:
		return exitFailed
	case jobs.Cancelled:
		return exitCancelled
	case jobs.WaitingForHuman:
		return exitWaiting
	}
	return exitPending
}

// verbError is err as the verb's exit: its code, its message and hint.
func verbError(name string, err error) error {
	var (
		ie *jobs.InputError
		ce *jobs.ConflictError
		se *jobstore.StateError
	)
	prefix := "cdpmcp jobs " + name + ": "
	switch {
	case errors.As(err, &ie):
		msg := prefix + ie.Msg
		if ie.Hint != "" {
			msg += "\nhint: " + ie.Hint
		}
		return &exitErr{exitUsage, msg}
	case errors.As(err, &ce):
		return &exitErr{exitConflict, prefix + ce.Error() + "\nhint: " + ce.Hint()}
	case errors.As(err, &se):
		return &exitErr{exitConflict, fmt.Sprintf("%sjob %s is %s, which a %s does not apply to; nothing changed", prefix, se.ID, se.State, name)}
	case errors.Is(err, jobstore.ErrNotFound):
		return &exitErr{exitNotFound, prefix + err.Error() + "\nhint: give the jobId that submit printed, with the --data-dir or --jobs-db (and --tenant) it was submitted to"}
	}
	return &exitErr{exitError, prefix + err.Error()}
}
