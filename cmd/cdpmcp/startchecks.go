package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/internal/children"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/tools"
)

// endOrphans ends the browsers (with their helpers) and ffmpeg processes a
// cdpmcp that died without closing them left running, and removes their
// temporary profiles. Only processes marked as started by a cdpmcp that no
// longer runs are touched (see internal/children).
func endOrphans() {
	found := children.EndOrphans()
	defer removeAbandonedProfiles()
	if len(found) == 0 {
		return
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, o := range found {
		slog.Warn("ended a process left running by a cdpmcp that died", "process", o.String(), "profile", o.Profile)
		for procgroup.Alive(o.PID) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// removeAbandonedProfiles removes the temporary browser profiles of cdpmcp
// processes that died without removing them; a --user-data-dir is the user's
// and is never touched.
func removeAbandonedProfiles() {
	for _, d := range children.Abandoned(filepath.Join(os.TempDir(), "cdpmcp-profile-*")) {
		// What is left of the browser that used it (helpers still exiting)
		// must be gone first, or it writes the profile back.
		deadline := time.Now().Add(3 * time.Second)
		for d.PGID > 0 && procgroup.Alive(d.PGID) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if d.PGID > 0 && procgroup.Alive(d.PGID) {
			children.EndRemnants(d.PGID)
			for deadline := time.Now().Add(2 * time.Second); procgroup.Alive(d.PGID) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
		}
		browserproc.RemoveSingletonDir(d.Path)
		if err := os.RemoveAll(d.Path); err == nil {
			slog.Info("removed the temporary profile a cdpmcp that died left", "dir", d.Path)
		}
	}
}

// checkEndpoint tries --cdp-endpoint (or --auto-connect) once at start. One
// that can never work (not a URL, not on this machine without
// --allow-remote-cdp, not Chrome's DevTools, refusing the --cdp-header sent)
// stops the server with the reason; one that does not answer yet (no Chrome
// accepting connections, for --auto-connect) is said in one line, and tool
// calls connect once it does.
func checkEndpoint(ctx context.Context, opts cdpclient.Options) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var err error
	if opts.AutoConnect {
		_, _, err = browserproc.AutoConnect(ctx, opts.Launch.UserDataDir)
	} else {
		err = browserproc.CheckEndpoint(ctx, opts.Endpoint, opts.AllowRemote, opts.Header)
	}
	var se *browserproc.SetupError
	switch {
	case err == nil:
		slog.Debug("the browser endpoint answers", "endpoint", browserproc.DisplayEndpoint(opts.Endpoint), "autoConnect", opts.AutoConnect)
		return nil
	case !errors.As(err, &se):
		return err
	case se.Permanent:
		return fmt.Errorf("%s; %s", se.Msg, se.Hint)
	}
	slog.Warn(se.Msg, "hint", se.Hint)
	return nil
}

// startJobs opens the job queue at start when the job tools are offered or
// the data dir (or --jobs-db) has jobs to take up. Nothing degrades
// silently: job tools asked for (--caps jobs, --data-dir, --tools) that
// cannot work (another server holds the data dir, the database does not
// answer) stop the server with the reason and the fix; where they were not
// asked for, the server runs without them and its MCP instructions say why,
// for the client (and the person) to see, as the log does.
func startJobs(cfg *config, st *stack) error {
	asked := tools.OffersJobs(cfg.tools)
	if !asked && !st.jobs.hasWork() {
		return nil // opened on the first job tool call, if any
	}
	err := st.jobs.open()
	if err == nil {
		return nil
	}
	st.jobs.close()
	st.jobs, cfg.tools.Jobs, cfg.tools.JobHandoff = nil, nil, nil
	if asked {
		also := ""
		if errors.Is(err, jobs.ErrDataDirBusy) {
			// make run asks for them: say how to pass the flag there.
			also = ` (with make run: make run ARGS="--data-dir DIR")`
		}
		return fmt.Errorf("the job tools were asked for (--caps jobs, --data-dir or --tools) and cannot start: %w%s; or serve without them (--no-jobs)", err, also)
	}
	slog.Warn("the job tools are off, and the jobs in the data dir are not taken up: " + err.Error())
	cfg.tools.JobsOff = "the job tools are off on this server: " + err.Error()
	return nil
}
