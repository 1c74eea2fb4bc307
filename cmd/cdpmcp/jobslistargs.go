package main

import (
	"fmt"
	"strings"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/urfave/cli/v2"
)

// allStates are the job states, in the order a job moves through them.
var allStates = []jobs.State{jobs.Queued, jobs.Dispatched, jobs.Running, jobs.WaitingForHuman, jobs.Resumed,
	jobs.Succeeded, jobs.Failed, jobs.Cancelled}

// listArgs reads the list's --state and checks what else it was given: a
// mistyped state or verb would otherwise list nothing, or everything,
// and look like an answer.
func listArgs(c *cli.Context) ([]jobs.State, error) {
	if c.NArg() > 0 {
		word := c.Args().First()
		var verbs []string
		for _, v := range c.Command.Subcommands {
			verbs = append(verbs, v.Name)
		}
		msg := fmt.Sprintf("no verb %q (verbs: %s; without one, it lists the jobs)", word, strings.Join(verbs, ", "))
		if near := nearest(word, verbs); near != "" {
			msg = fmt.Sprintf("no verb %q; did you mean %s? (verbs: %s; without one, it lists the jobs)", word, near, strings.Join(verbs, ", "))
		}
		return nil, fmt.Errorf("%s", msg)
	}
	if n := c.Int("limit"); n < 0 {
		return nil, fmt.Errorf("--limit %d: give how many of the last jobs to list, or 0 for all", n)
	}
	names := make([]string, len(allStates))
	for i, s := range allStates {
		names[i] = string(s)
	}
	var states []jobs.State
	for _, s := range splitList(strings.ToUpper(c.String("state"))) {
		s = strings.ReplaceAll(s, "-", "_")
		known := false
		for _, k := range allStates {
			known = known || string(k) == s
		}
		if !known {
			msg := fmt.Sprintf("--state: %q is not a job state (states: %s)", s, strings.Join(names, ", "))
			if near := nearest(s, names); near != "" {
				msg = fmt.Sprintf("--state: %q is not a job state; did you mean %s? (states: %s)", s, near, strings.Join(names, ", "))
			}
			return nil, fmt.Errorf("%s", msg)
		}
		states = append(states, jobs.State(s))
	}
	return states, nil
}
