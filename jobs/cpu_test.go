package jobs_test

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is /proc's unit of CPU time (USER_HZ), 1/100 s on Linux.
const clockTick = 10 * time.Millisecond

// browserCPUByKind is the CPU time the browsers whose profile is under dir
// have used (every process in their process groups, with the children they
// have reaped: a closed tab's renderer), by kind of process: "browser" (the main
// process), "renderer", "gpu-process", "utility" (the network service …),
// "zygote" (which reaps the renderers: their CPU once they ended).
func browserCPUByKind(dir string) map[string]time.Duration {
	type proc struct {
		ppid  string
		ticks int
	}
	procs := map[string]proc{}
	entries, _ := os.ReadDir("/proc")
	for _, d := range entries {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		i := bytes.LastIndexByte(st, ')')
		if err != nil || i < 0 {
			continue
		}
		// After the command: state, ppid, … utime (14th field), stime,
		// cutime, cstime.
		f := strings.Fields(string(st[i+2:]))
		if len(f) < 15 {
			continue
		}
		p := proc{ppid: f[1]}
		for _, s := range f[11:15] {
			n, _ := strconv.Atoi(s)
			p.ticks += n
		}
		procs[d.Name()] = p
	}
	// The browsers and every process they started (the zygotes fork the
	// renderers in process groups of their own).
	ours := map[string]bool{}
	for _, pid := range browsersUnder(dir) {
		ours[pid] = true
	}
	for grew := true; grew; {
		grew = false
		for pid, p := range procs {
			if !ours[pid] && ours[p.ppid] {
				ours[pid], grew = true, true
			}
		}
	}
	out := map[string]time.Duration{}
	for pid := range ours {
		out[processKind(pid)] += time.Duration(procs[pid].ticks) * clockTick
	}
	return out
}

// processKind is a Chromium process's --type, "browser" without one.
// Chromium rewrites its children's command lines as one string, arguments
// parted by spaces.
func processKind(pid string) string {
	cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
	_, kind, ok := bytes.Cut(cmd, []byte("--type="))
	if !ok {
		return "browser"
	}
	if i := bytes.IndexAny(kind, " \x00"); i >= 0 {
		kind = kind[:i]
	}
	return string(kind)
}

// selfCPU is the CPU time this process has used: the queue, its store and the
// benchmark's own polling.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
