package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// extractOnAWorker is Extract on a process that opens no tabs (a fleet's
// serve --max-tabs 0): the extraction runs as an extract job of the highest
// priority, on whichever worker claims it first, and the call waits for it
// within ctx. A job left unfinished when ctx ends is cancelled.
func (q *Queue) extractOnAWorker(ctx context.Context, req ExtractRequest) (*Extracted, error) {
	prio := 10
	// Each call is a job of its own: a caller's correlationId ties its
	// calls together, it is no idempotency key here (reading twice is safe).
	j, _, err := q.Submit(ctx, SubmitRequest{CorrelationID: "extract_structured " + req.CorrelationID + " " + newID(),
		URL: req.URL, Profile: req.Profile, Priority: &prio, Task: Task{Type: TaskExtract, Extract: req.Schema}})
	if err != nil {
		return nil, err
	}
	done, err := q.Wait(ctx, j.ID)
	if err != nil || done == nil || !done.State.Terminal() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdpclient.CallTimeout)
		defer cancel()
		_, _ = q.Cancel(cctx, j.ID, "extract_structured's call ended before a worker was done")
		if err == nil {
			err = fmt.Errorf("no worker finished the extraction in the call's time (it waited for a person)")
		}
		return nil, &cdpclient.Error{Code: cdpclient.CodeTimeout, Err: err,
			Msg:  "no worker finished the extraction (job " + j.ID + ") in the call's time: " + err.Error(),
			Hint: "raise the call's timeout, or submit an extract job (browser.job.submit with task.extract) and wait for it"}
	}
	if done.State != Succeeded {
		return nil, jobFailure(done)
	}
	var res ExtractResult
	if err := json.Unmarshal(done.Result, &res); err != nil || res.Result == nil {
		return nil, fmt.Errorf("the extract job %s answered no result: %v", done.ID, err)
	}
	res.Notes = append(res.Notes, "read by worker "+done.Worker+" (job "+done.ID+")")
	shot := done.Artifacts.Screenshot
	if _, err := os.Stat(shot); shot != "" && err != nil {
		// On the worker's disk, not this machine's: named, not linked.
		res.Notes = append(res.Notes, "its screenshot is on worker "+done.Worker+"'s machine: "+shot)
		shot = ""
	}
	return &Extracted{FinalURL: done.FinalURL, Result: res.Result, Screenshot: shot}, nil
}

// jobFailure is the error of a job that ended without success: its code, read
// from the error's "CODE: " start, and its message.
func jobFailure(j *Job) error {
	msg := j.Error
	if msg == "" {
		msg = "the job ended " + string(j.State)
	}
	code := cdpclient.CodeInternal
	if name, _, ok := strings.Cut(msg, ": "); ok {
		for c := cdpclient.CodeOK; c <= cdpclient.CodeInternal; c++ {
			if c.String() == name {
				code = c
			}
		}
	}
	return &cdpclient.Error{Code: code, Msg: msg + " (job " + j.ID + ")"}
}
