//go:build unix

package main

import (
	"fmt"
	"strings"
	"time"
)

// report is what a soak found.
type report struct {
	samples           []sample
	calls, failures   int64
	sessions          int64
	churn, concurrent int
	load, churnTime   time.Duration
	firstErr          string
	problems          []error
}

// memoryLevelsOff checks that the server's memory grew no more in the last
// half of the load than in the first (allowing for noise): a leak per call
// or per session keeps growing.
func (r *report) memoryLevelsOff() error {
	var load []sample
	for _, s := range r.samples {
		if strings.HasPrefix(s.what, "load ") && s.what != "load ended" {
			load = append(load, s)
		}
	}
	if len(load) < 4 {
		return nil
	}
	first, mid, last := load[0], load[len(load)/2], load[len(load)-1]
	early, late := mid.rssKiB-first.rssKiB, last.rssKiB-mid.rssKiB
	if late > max(early, 0)+16<<10 { // 16 MiB of noise
		return fmt.Errorf("memory keeps growing: %d KiB in the first half of the load, %d KiB in the second", early, late)
	}
	return nil
}

func (r *report) markdown() string {
	var b strings.Builder
	first, last := r.samples[0], r.samples[len(r.samples)-1]
	peak := first
	for _, s := range r.samples {
		if s.rssKiB > peak.rssKiB {
			peak = s
		}
	}
	fmt.Fprintf(&b, "# cdpmcp soak\n\n")
	fmt.Fprintf(&b, "%d sessions calling at once for %s: %d calls (%.1f calls/s), %d failed; %d sessions opened and closed under load, then %d more in a row (%s, %.1f/s).\n\n",
		r.concurrent, r.load.Round(time.Second), r.calls, float64(r.calls)/r.load.Seconds(), r.failures, r.sessions, r.churn,
		r.churnTime.Round(time.Millisecond), float64(r.churn)/r.churnTime.Seconds())
	fmt.Fprintf(&b, "| | before | peak | after |\n|---|---|---|---|\n")
	fmt.Fprintf(&b, "| server RSS (MiB) | %.1f | %.1f | %.1f |\n", mib(first.rssKiB), mib(peak.rssKiB), mib(last.rssKiB))
	fmt.Fprintf(&b, "| server threads | %d | | %d |\n", first.threads, last.threads)
	fmt.Fprintf(&b, "| server open files | %d | | %d |\n", first.fds, last.fds)
	fmt.Fprintf(&b, "| browser processes | %d | | %d |\n", first.procs, last.procs)
	fmt.Fprintf(&b, "| browser contexts (sessions') | %d | | %d |\n", first.contexts, last.contexts)
	fmt.Fprintf(&b, "| tabs | %d | | %d |\n\n", first.tabs, last.tabs)
	fmt.Fprintf(&b, "| sample | calls | RSS MiB | threads | files | browser procs | contexts | tabs |\n|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.samples {
		fmt.Fprintf(&b, "| %s | %d | %.1f | %d | %d | %d | %d | %d |\n", s.what, s.calls, mib(s.rssKiB), s.threads, s.fds, s.procs, s.contexts, s.tabs)
	}
	if len(r.problems) == 0 {
		fmt.Fprintf(&b, "\nHeld: no call failed, memory levelled off, and contexts, tabs, processes and open files came back to where they were.\n")
	} else {
		fmt.Fprintf(&b, "\nDid not hold:\n")
		for _, p := range r.problems {
			fmt.Fprintf(&b, "- %v\n", p)
		}
	}
	return b.String()
}

func mib(kib int) float64 { return float64(kib) / 1024 }
