package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/urfave/cli/v2"
)

// jobsCommand is `cdpmcp jobs`: the queue from a shell, read next to a
// running server.
func jobsCommand() *cli.Command {
	return &cli.Command{
		Name:  "jobs",
		Usage: "list the job queue (--follow to tail its changes)",
		Flags: []cli.Flag{
			dataDirFlag(),
			&cli.StringFlag{Name: "state", Usage: "only jobs in these `STATES` (comma-separated, e.g. QUEUED,RUNNING)"},
			&cli.IntFlag{Name: "limit", Value: 50, Usage: "list at most the last `N` jobs (0: all)"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing changes as they happen (Ctrl-C stops)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per job"},
		},
		Action: func(c *cli.Context) error {
			var states []jobs.State
			for _, s := range splitList(strings.ToUpper(c.String("state"))) {
				states = append(states, jobs.State(s))
			}
			return listJobs(c.Context, c.App.Writer, c.String("data-dir"), states, c.Int("limit"), c.Bool("follow"), c.Bool("json"))
		},
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
		return err
	}
	defer store.Close()
	all, err := store.List(ctx, jobs.Filter{States: states})
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
	if !asJSON && !follow {
		fmt.Fprintf(w, "%-24s %-17s %4s %-8s %-3s %-10s %s\n", "JOB", "STATUS", "PROG", "TYPE", "PRI", "PROFILE", "URL / SUMMARY")
	}
	for _, j := range all {
		printJob(w, j, asJSON)
	}
	if !follow {
		return nil
	}
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		changed, err := store.List(ctx, jobs.Filter{States: states, Since: rev})
		if err != nil {
			return err
		}
		for _, j := range changed {
			rev = max(rev, j.Rev)
			printJob(w, j, asJSON)
		}
	}
}

func printJob(w io.Writer, j *jobs.Job, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(map[string]any{
			"jobId": j.ID, "tenant": tenant.Label(j.Tenant), "correlationId": j.CorrelationID, "status": j.State, "progress": j.Progress, "type": j.Task.Type,
			"priority": j.Priority, "profile": j.Profile, "url": j.URL, "summary": j.Summary, "error": j.Error,
			"finalUrl": j.FinalURL, "artifacts": j.Artifacts, "attempt": j.Attempt, "createdAt": j.Created, "rev": j.Rev,
		})
		fmt.Fprintln(w, string(b))
		return
	}
	profile := j.Profile
	if profile == "" {
		profile = "-"
	}
	fmt.Fprintf(w, "%-24s %-17s %3.0f%% %-8s %-3d %-10s %s — %s\n", j.ID, j.State, j.Progress*100, j.Task.Type, j.Priority, profile, j.URL, j.Summary)
}
