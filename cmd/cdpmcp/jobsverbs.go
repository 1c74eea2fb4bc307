package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/urfave/cli/v2"
)

// The job verbs, `cdpmcp jobs submit|status|wait|cancel|resume`, are a front
// door on the queue (jobs.OpenDoor) for scripts and cron lines, beside the
// server or the workers that run the jobs: JSON in (an argument, or stdin),
// one JSON object out (the job tools' answers), and an exit code to branch on.

func verbFlags(extra ...cli.Flag) []cli.Flag {
	return append([]cli.Flag{
		dataDirFlag(),
		jobsDBFlag(),
		&cli.StringFlag{Name: "tenant", EnvVars: env("TENANT"), Usage: "act for the tenant `NAME` (a named --auth-token's jobs); default: the local user"},
		&cli.StringFlag{Name: "auth-tokens-file", EnvVars: env("AUTH_TOKENS_FILE"), Usage: "the serve's tokens `FILE`, to check --tenant against the names it gives (without it, --tenant must name a tenant with jobs in the store)"},
	}, extra...)
}

func jobVerbs() []*cli.Command {
	timeout := &cli.DurationFlag{Name: "timeout", Usage: "wait at most `DURATION` (0: until the job ends or waits for a person); then exit 6"}
	verb := func(name, args, usage string, flags []cli.Flag, run func(ctx context.Context, c *cli.Context, q *jobs.Queue, in []byte) (any, int, error)) *cli.Command {
		return &cli.Command{
			Name: name, ArgsUsage: args, Usage: usage, Flags: flags,
			OnUsageError: func(c *cli.Context, err error, _ bool) error {
				return &exitErr{exitUsage, fmt.Sprintf("cdpmcp jobs %s: %v (cdpmcp jobs %s --help lists the flags)", name, err, name)}
			},
			Action: func(c *cli.Context) error {
				// Scripts read stdout; stderr gets warnings only.
				slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
				in, err := verbInput(c)
				if err != nil {
					return &exitErr{exitUsage, fmt.Sprintf("cdpmcp jobs %s: %v", name, err)}
				}
				ctx, q, done, err := openDoor(c, name == "submit")
				if err != nil {
					return verbError(name, err)
				}
				defer done()
				out, code, err := run(ctx, c, q, in)
				if err != nil {
					return verbError(name, err)
				}
				b, _ := json.Marshal(out)
				fmt.Fprintln(c.App.Writer, string(b))
				if code != exitOK {
					return &exitErr{code: code}
				}
				return nil
			},
		}
	}
	return []*cli.Command{
		verb("submit", "['{job as browser.job.submit takes it}' | - ]", "queue a job (JSON as browser.job.submit takes it, or on stdin); prints its answer",
			verbFlags(&cli.BoolFlag{Name: "wait", Usage: "then wait until it ends or waits for a person, print its status and exit with its code"}, timeout),
			func(ctx context.Context, c *cli.Context, q *jobs.Queue, in []byte) (any, int, error) {
				var req jobs.SubmitRequest
				if err := strictJSON(in, &req); err != nil {
					return nil, 0, &jobs.InputError{Msg: "the job: " + err.Error(), Hint: `give it as browser.job.submit takes it, e.g. {"correlationId":"nightly-1","url":"https://example.com/","task":{"type":"navigate"}}`}
				}
				j, created, err := q.Submit(ctx, req)
				if err != nil {
					return nil, 0, err
				}
				if !c.Bool("wait") {
					return tools.SubmitAnswer(j, created), exitOK, nil
				}
				return waitFor(ctx, c, q, j.ID)
			}),
		verb("status", "[JOBID | '{\"jobId\":…}' | -]", "print a job's status (as browser.job.status answers); the exit code says its state",
			verbFlags(), func(ctx context.Context, c *cli.Context, q *jobs.Queue, in []byte) (any, int, error) {
				j, _, err := ownedJob(ctx, q, in)
				if err != nil {
					return nil, 0, err
				}
				return tools.StatusAnswer(j), stateCode(j.State), nil
			}),
		verb("wait", "[JOBID | '{\"jobId\":…}' | -]", "wait until a job ends or waits for a person; print its status and exit with its code",
			verbFlags(timeout), func(ctx context.Context, c *cli.Context, q *jobs.Queue, in []byte) (any, int, error) {
				j, _, err := ownedJob(ctx, q, in)
				if err != nil {
					return nil, 0, err
				}
				return waitFor(ctx, c, q, j.ID)
			}),
		verb("cancel", "[JOBID | '{\"jobId\":…,\"reason\":…}' | -]", "cancel an unfinished job",
			verbFlags(&cli.StringFlag{Name: "reason", Usage: "why, kept in its summary"}), func(ctx context.Context, c *cli.Context, q *jobs.Queue, in []byte) (any, int, error) {
				j, a, err := ownedJob(ctx, q, in)
				if err != nil {
					return nil, 0, err
				}
				if a.Reason == "" {
					a.Reason = c.String("reason")
				}
				if j, err = q.Cancel(ctx, j.ID, a.Reason); err != nil {
					return nil, 0, err
				}
				return tools.ChangeAnswer(j), exitOK, nil
			}),
		verb("resume", "[JOBID | '{\"jobId\":…,\"note\":…}' | -]", "resume a job that waits for a person, once they are done",
			verbFlags(&cli.StringFlag{Name: "note", Usage: "what the person did, kept with the job"}), func(ctx context.Context, c *cli.Context, q *jobs.Queue, in []byte) (any, int, error) {
				j, a, err := ownedJob(ctx, q, in)
				if err != nil {
					return nil, 0, err
				}
				if a.Note == "" {
					a.Note = c.String("note")
				}
				if j, err = q.Resume(ctx, j.ID, a.Note); err != nil {
					return nil, 0, err
				}
				return tools.ChangeAnswer(j), exitOK, nil
			}),
	}
}

// verbInput is the verb's argument, or stdin when there is none or it is "-".
func verbInput(c *cli.Context) ([]byte, error) {
	if c.NArg() > 1 {
		return nil, fmt.Errorf("give one argument (a job id or a JSON object), not %d; quote the JSON", c.NArg())
	}
	if a := c.Args().First(); a != "" && a != "-" {
		return []byte(a), nil
	}
	b, err := io.ReadAll(io.LimitReader(os.Stdin, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil, errors.New("nothing to read: give a job id or a JSON object as the argument, or on stdin")
	}
	return b, nil
}

// openDoor opens the front door on --jobs-db or the SQLite store of
// --data-dir, acting for --tenant. Only a submit creates a store; the others
// find no job where there is none.
func openDoor(c *cli.Context, create bool) (context.Context, *jobs.Queue, func(), error) {
	ctx := c.Context
	if name := c.String("tenant"); name != "" {
		if err := tenant.Check(name); err != nil {
			return nil, nil, nil, &jobs.InputError{Msg: "--tenant: " + err.Error()}
		}
		ctx = tenant.With(ctx, name)
	}
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var (
		store jobs.Store
		name  string
		err   error
	)
	if db := c.String("jobs-db"); db != "" {
		// As on a data dir, only a submit makes the store (a script may
		// queue jobs before the first worker starts); the others read one.
		if create {
			store, err = postgres.Open(octx, db)
		} else {
			store, err = postgres.OpenExisting(octx, db)
		}
		name = "shared by the workers"
	} else {
		dir := c.String("data-dir")
		name = jobs.DBPath(dir)
		if _, serr := os.Stat(name); serr != nil && !create {
			return nil, nil, nil, fmt.Errorf("no jobs in %s: %w", dir, jobstore.ErrNotFound)
		} else if serr != nil {
			if err := safefs.Dir(dir, "the data folder (--data-dir)"); err != nil {
				return nil, nil, nil, err
			}
		}
		store, err = sqlite.Open(octx, name, false)
		if err != nil {
			err = explainStore(name, err)
		}
	}
	if err != nil {
		return nil, nil, nil, err
	}
	q, err := jobs.OpenDoor(ctx, jobs.Config{Store: store, Version: version}, name)
	if err != nil {
		store.Close()
		return nil, nil, nil, err
	}
	if name := c.String("tenant"); name != "" {
		if err := checkTenant(ctx, q, name, c.String("auth-tokens-file")); err != nil {
			_ = q.Close()
			store.Close()
			return nil, nil, nil, err
		}
	}
	return ctx, q, func() { _ = q.Close(); _ = store.Close() }, nil
}

// verbArgs are what status, wait, cancel and resume read: a job id, or an
// object that holds one (a submit's answer piped in will do).
type verbArgs struct {
	JobID         string `json:"jobId"`
	CorrelationID string `json:"correlationId"`
	Reason        string `json:"reason"`
	Note          string `json:"note"`
}

// ownedJob reads the job in names, checking the correlationId when given.
func ownedJob(ctx context.Context, q *jobs.Queue, in []byte) (*jobs.Job, verbArgs, error) {
	var a verbArgs
	text := strings.TrimSpace(string(in))
	if strings.HasPrefix(text, "{") {
		if err := json.Unmarshal([]byte(text), &a); err != nil {
			return nil, a, &jobs.InputError{Msg: "the arguments: " + err.Error(), Hint: `give a job id, or {"jobId":"job-…"}`}
		}
	} else {
		a.JobID = text
	}
	if a.JobID == "" || strings.ContainsAny(a.JobID, " \n\t") {
		return nil, a, &jobs.InputError{Msg: fmt.Sprintf("%q is not a job id", a.JobID), Hint: "give the jobId cdpmcp jobs submit (or browser.job.submit) printed, e.g. job-7hrynif7jefjsvqg"}
	}
	j, err := q.Status(ctx, a.JobID)
	if err != nil {
		return nil, a, err
	}
	if a.CorrelationID != "" && a.CorrelationID != j.CorrelationID {
		return nil, a, &jobs.InputError{Msg: fmt.Sprintf("job %s was submitted with correlationId %q, not %q; nothing changed", j.ID, j.CorrelationID, a.CorrelationID)}
	}
	return j, a, nil
}

// waitFor waits for job id within --timeout and answers with its status.
// With no server on --data-dir it says first that the job waits for one.
func waitFor(ctx context.Context, c *cli.Context, q *jobs.Queue, id string) (any, int, error) {
	if dir := c.String("data-dir"); c.String("jobs-db") == "" && !jobs.Served(dir) {
		fmt.Fprintf(c.App.ErrWriter, "cdpmcp jobs: no cdpmcp serve or worker runs on %s: the job waits until one starts there (--timeout bounds the wait)\n", dir)
	}
	if d := c.Duration("timeout"); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	// A wait that ran out answers the job as it is; one that ran out while
	// the store did not answer says so (an error).
	j, err := q.Wait(ctx, id)
	if j != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return tools.StatusAnswer(j), exitPending, nil
	}
	if err != nil {
		return nil, 0, err
	}
	return tools.StatusAnswer(j), stateCode(j.State), nil
}

// strictJSON decodes one JSON object into v, refusing unknown fields.
func strictJSON(in []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(in)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}
