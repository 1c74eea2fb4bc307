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

// browserCPU is the CPU time the browsers whose profile is under dir have
// used: every process in their process groups, with the children they have
// reaped (a closed tab's renderer).
func browserCPU(dir string) time.Duration {
	groups := map[int]bool{}
	for _, pid := range browsersUnder(dir) {
		p, _ := strconv.Atoi(pid)
		if g, err := syscall.Getpgid(p); err == nil {
			groups[g] = true
		}
	}
	var ticks int
	procs, _ := os.ReadDir("/proc")
	for _, d := range procs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(p); err != nil || !groups[g] {
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
		for _, s := range f[11:15] {
			n, _ := strconv.Atoi(s)
			ticks += n
		}
	}
	return time.Duration(ticks) * clockTick
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
