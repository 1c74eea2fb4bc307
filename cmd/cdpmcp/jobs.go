package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/urfave/cli/v2"
)

// jobsCommand is `cdpmcp jobs`: the queue from a shell, read next to a
// running server.
func jobsCommand() *cli.Command {
	return &cli.Command{
		Name:        "jobs",
		Usage:       "list the job queue (--follow to tail its changes); submit, status, wait, cancel and resume jobs from a shell",
		Subcommands: jobVerbs(),
		Flags: []cli.Flag{
			dataDirFlag(),
			jobsDBFlag(),
			&cli.StringFlag{Name: "state", Usage: "only jobs in these `STATES` (comma-separated, e.g. QUEUED,RUNNING)"},
			&cli.IntFlag{Name: "limit", Value: 50, Usage: "list at most the last `N` jobs (0: all)"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing changes as they happen (Ctrl-C stops)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per job"},
		},
		Action: func(c *cli.Context) error {
			states, err := listArgs(c)
			if err != nil {
				return &exitErr{exitUsage, "cdpmcp jobs: " + err.Error()}
			}
			if db := c.String("jobs-db"); db != "" {
				store, err := openFleetStore(c.Context, db, c.Bool("follow"))
				if err != nil || store == nil {
					return err // nil, nil: stopped while it waited
				}
				defer store.Close()
				return printJobs(c.Context, c.App.Writer, store, states, c.Int("limit"), c.Bool("follow"), c.Bool("json"))
			}
			return listJobs(c.Context, c.App.Writer, c.String("data-dir"), states, c.Int("limit"), c.Bool("follow"), c.Bool("json"))
		},
	}
}

// openFleetStore opens a fleet's job store to list it. A follow waits for a
// store not made yet (no serve or worker ran there), saying so once, as it
// waits for a data dir's first job; a list says there is none.
func openFleetStore(ctx context.Context, db string, follow bool) (jobs.Store, error) {
	said := false
	for {
		store, err := postgres.OpenExisting(ctx, db)
		if err == nil || !follow || !errors.Is(err, postgres.ErrNoSchema) {
			return store, err
		}
		if !said {
			slog.Warn("no job store there yet; following it once a serve or worker creates it (Ctrl-C stops)", "db", postgres.Where(db), "err", err)
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-time.After(2 * time.Second):
		}
	}
}

func listJobs(ctx context.Context, w io.Writer, dataDir string, states []jobs.State, limit int, follow, asJSON bool) error {
	path := jobs.DBPath(dataDir)
	if _, err := os.Stat(path); err != nil {
		if !follow {
			fmt.Fprintf(w, "no jobs in %s\n", dataDir)
			return nil
		}
		for { // wait for the first job
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(500 * time.Millisecond):
			}
			if _, err := os.Stat(path); err == nil {
				break
			}
		}
	}
	store, err := sqlite.Open(ctx, path, true)
	if err != nil {
		return explainStore(path, err)
	}
	defer store.Close()
	if err := printJobs(ctx, w, store, states, limit, follow, asJSON); err != nil {
		return explainStore(path, err)
	}
	return nil
}

// followWindow is how many revisions back a follow of a shared store looks
// again: its writers commit concurrently, so a change can land below the
// newest revision already seen.
const followWindow = 256

func printJobs(ctx context.Context, w io.Writer, store jobs.Store, states []jobs.State, limit int, follow, asJSON bool) error {
	all, err := store.List(ctx, jobstore.Filter{States: states})
	if err != nil {
		return err
	}
	var rev int64
	for _, j := range all {
		rev = max(rev, j.Rev)
	}
	sort.Slice(all, func(i, k int) bool { return all[i].Seq < all[k].Seq })
	if limit > 0 && len(all) > limit {
		all = all[len(all)-limit:]
	}
	fleet := store.Shared()
	if !asJSON && !follow {
		printHeader(w, fleet)
	}
	printed := map[string]int64{} // job id → revision printed
	for _, j := range all {
		printed[j.ID] = j.Rev
		printJob(w, j, asJSON, fleet)
	}
	if !follow {
		return nil
	}
	var cut followCut
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(cut.next()):
		}
		since := rev
		if fleet {
			since = max(rev-followWindow, 0)
		}
		changed, err := store.List(ctx, jobstore.Filter{States: states, Since: since})
		if err != nil && jobstore.Unreachable(err) && ctx.Err() == nil {
			cut.failed(err)
			continue
		}
		if err != nil {
			return err
		}
		cut.answered()
		for _, j := range changed {
			rev = max(rev, j.Rev)
			if printed[j.ID] >= j.Rev {
				continue
			}
			printed[j.ID] = j.Rev
			printJob(w, j, asJSON, fleet)
		}
	}
}

func printHeader(w io.Writer, fleet bool) {
	worker := ""
	if fleet {
		worker = fmt.Sprintf(" %-20s", "WORKER")
	}
	fmt.Fprintf(w, "%-24s %-17s %4s %-8s %-3s %-10s%s %s\n", "JOB", "STATUS", "PROG", "TYPE", "PRI", "PROFILE", worker, "URL / SUMMARY")
}

// printJob prints one line for j; fleet adds the worker column.
func printJob(w io.Writer, j *jobs.Job, asJSON, fleet bool) {
	if asJSON {
		b, _ := json.Marshal(map[string]any{
			"jobId": j.ID, "tenant": tenant.Label(j.Tenant), "correlationId": j.CorrelationID, "status": j.State, "progress": j.Progress, "type": j.Task.Type,
			"priority": j.Priority, "profile": j.Profile, "url": j.URL, "summary": j.Summary, "error": j.Error,
			"finalUrl": j.FinalURL, "artifacts": j.Artifacts, "attempt": j.Attempt, "createdAt": j.Created, "rev": j.Rev,
			"worker": j.Worker,
		})
		fmt.Fprintln(w, string(withJobDetails(b, j)))
		return
	}
	profile := j.Profile
	if profile == "" {
		profile = "-"
	}
	worker := ""
	if fleet {
		worker = j.Worker
		if worker == "" {
			worker = "-"
		}
		worker = fmt.Sprintf(" %-20s", worker)
	}
	fmt.Fprintf(w, "%-24s %-17s %3.0f%% %-8s %-3d %-10s%s %s — %s\n", j.ID, j.State, j.Progress*100, j.Task.Type, j.Priority, profile, worker, j.URL, j.Summary)
	printJobDetails(w, j)
}

// followPoll is how often a follow reads the changes; while the store does
// not answer it tries again less and less often, up to followBackoff.
const (
	followPoll    = 300 * time.Millisecond
	followBackoff = 5 * time.Second
)

// followCut follows a follow through a store that does not answer (a
// database restarting): it goes on trying, with backoff, and says so once.
type followCut struct {
	since time.Time // zero while the store answers
	wait  time.Duration
}

func (c *followCut) next() time.Duration {
	if c.since.IsZero() {
		return followPoll
	}
	return c.wait
}

func (c *followCut) failed(err error) {
	if c.since.IsZero() {
		c.since, c.wait = time.Now(), followPoll
		slog.Warn("the job store could not be reached; trying again until it answers (Ctrl-C stops)", "err", err)
	}
	c.wait = min(c.wait*2, followBackoff)
}

func (c *followCut) answered() {
	if !c.since.IsZero() {
		slog.Info("the job store answers again; following", "unreachableFor", time.Since(c.since).Round(time.Millisecond))
		c.since = time.Time{}
	}
}
