// Command floorbench measures the floor under the bench: each scenario of
// mcpbench.mjs (login, read, stress, late, frames, shot) done over raw CDP
// with mafredri/cdp alone, in the bench's browser with the bench's flags and
// nothing else: navigate and wait for the load event, read the page in one
// round trip, dispatch the input. It prints each step's median beside the MCP
// servers' from an mcpbench result file, with ours ÷ floor and the fastest
// peer ÷ ours.
//
//	go run ./cdpclient/floorbench -site ../shared/bench/site [-mcpbench results.json] [-reps 20]
//
// It lives under cdpclient because only cdpclient imports mafredri/cdp.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	siteDir := flag.String("site", "../shared/bench/site", "the bench's `DIR` of fixture pages")
	chromium := flag.String("chromium", "/usr/bin/chromium", "the browser `PATH` (the bench's --chromium)")
	reps := flag.Int("reps", 20, "measured repetitions of each scenario")
	warmup := flag.Int("warmup", 1, "unmeasured repetitions before them")
	only := flag.String("scenarios", "login,read,stress,late,frames,shot", "scenarios to run (comma-separated)")
	read := flag.String("read", "script", "how the floor reads a page: script (js/read.js) or domsnapshot")
	mcpbench := flag.String("mcpbench", "", "an mcpbench result `FILE` (JSON) to compare with")
	out := flag.String("md", "", "also write the table to `FILE`")
	js := flag.String("json", "", "also write the floor's medians to `FILE` as JSON: {scenario: {step: ms, \"all\": ms}}")
	oursBin := flag.String("ours", "", "cdpmcp's `BINARY`: measure it here too, a repetition of it and one of the floor in turn (its column then comes from this run, not from -mcpbench)")
	flag.Parse()
	if err := run(*siteDir, *chromium, *reps, *warmup, strings.Split(*only, ","), *read, *mcpbench, *out, *js, *oursBin); err != nil {
		fmt.Fprintln(os.Stderr, "floorbench:", err)
		os.Exit(1)
	}
}

func run(siteDir, chromium string, reps, warmup int, only []string, read, mcpbench, out, js, oursBin string) error {
	dir, err := filepath.Abs(siteDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "login.html")); err != nil {
		return fmt.Errorf("-site %s: not the bench's site (%w)", siteDir, err)
	}
	var servers []server
	if mcpbench != "" {
		if servers, err = loadMCPBench(mcpbench); err != nil {
			return err
		}
	}
	s, err := startSite(dir)
	if err != nil {
		return err
	}
	defer s.close()
	ctx := context.Background()
	b, err := launch(ctx, chromium)
	if err != nil {
		return err
	}
	defer b.close()
	var o *ours
	if oursBin != "" {
		if o, err = startOurs(ctx, oursBin, chromium); err != nil {
			return err
		}
		defer o.close()
	}
	var floor, paired []timing
	for _, sc := range scenarios(read) {
		if !slices.Contains(only, sc.name) {
			continue
		}
		t, ot, err := measure(ctx, b, o, s.base, sc, reps, warmup)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		slog.Info("floor", "scenario", sc.name, "median ms", ms(t.total))
		floor = append(floor, t)
		if o != nil {
			slog.Info("ours", "scenario", sc.name, "median ms", ms(ot.total))
			paired = append(paired, ot)
		}
	}
	if o != nil {
		servers = withOurs(servers, paired)
	}
	md := table(floor, servers, reps, o != nil)
	fmt.Println(md)
	if out != "" {
		if err := os.WriteFile(out, []byte(md+"\n"), 0o644); err != nil {
			return err
		}
	}
	if js != "" {
		return writeJSON(js, floor)
	}
	return nil
}

// timing is a scenario's measured repetitions: each step's times and the
// repetitions' totals.
type timing struct {
	scenario string
	steps    []string
	byStep   map[string][]time.Duration
	total    []time.Duration
}

// measure runs a scenario warmup+reps times, each step bounded by 20 s as
// mcpbench bounds a call, and checks its outcome after every repetition;
// with o, cdpmcp's repetitions too, one of each in turn (which goes first
// alternates).
func measure(ctx context.Context, b *browser, o *ours, base string, sc scenario, reps, warmup int) (floor, paired timing, err error) {
	floor, paired = newTiming(sc), newTiming(sc)
	floorRep := func(i int) error {
		return repeat(ctx, sc, &floor, i >= warmup, b, func(ctx context.Context, st step) error { return st.run(ctx, b, base) })
	}
	oursRep := func(i int) error {
		return repeat(ctx, sc, &paired, i >= warmup, o, func(ctx context.Context, st step) error { return st.ours(ctx, o, base) })
	}
	for i := 0; i < warmup+reps; i++ {
		turns := []func(int) error{floorRep, oursRep}
		switch {
		case o == nil:
			turns = turns[:1]
		case i%2 == 1:
			turns[0], turns[1] = oursRep, floorRep
		}
		for _, turn := range turns {
			if err := turn(i); err != nil {
				return floor, paired, err
			}
		}
	}
	return floor, paired, nil
}

// newTiming is an empty timing of sc's steps.
func newTiming(sc scenario) timing {
	t := timing{scenario: sc.name, byStep: map[string][]time.Duration{}}
	for _, st := range sc.steps {
		t.steps = append(t.steps, st.name)
	}
	return t
}

// repeat does a scenario's steps once with do, recording their times into t
// when measured, and checks the outcome with e.
func repeat(ctx context.Context, sc scenario, t *timing, measured bool, e evaluator, do func(context.Context, step) error) error {
	var sum time.Duration
	for _, st := range sc.steps {
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		start := time.Now()
		err := do(sctx, st)
		d := time.Since(start)
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", st.name, err)
		}
		if measured {
			t.byStep[st.name] = append(t.byStep[st.name], d)
		}
		sum += d
	}
	if sc.verify != nil {
		if err := sc.verify(ctx, e); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
	}
	if measured {
		t.total = append(t.total, sum)
	}
	return nil
}

// ms is the median of ds in milliseconds.
func ms(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 0 {
		return float64(s[m-1]+s[m]) / 2 / float64(time.Millisecond)
	}
	return float64(s[m]) / float64(time.Millisecond)
}
