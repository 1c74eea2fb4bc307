package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
)

// profileEnv names a directory where the process writes a CPU profile of its
// whole run (cpu.pprof) and, as it ends, its heap after a collection
// (heap.pprof): for finding where a server's time and memory go
// (docs/development.md). Unset, nothing is profiled.
const profileEnv = "CDPMCP_PPROF"

// startProfile starts the CPU profile when CDPMCP_PPROF is set; the function it
// returns writes the heap profile and ends both.
func startProfile() func() {
	dir := os.Getenv(profileEnv)
	if dir == "" {
		return func() {}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		slog.Warn(profileEnv+": no profile", "err", err)
		return func() {}
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.pprof"))
	if err == nil {
		err = pprof.StartCPUProfile(cpu)
	}
	if err != nil {
		slog.Warn(profileEnv+": no CPU profile", "err", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if cpu != nil {
			_ = cpu.Close()
		}
		heap, err := os.Create(filepath.Join(dir, "heap.pprof"))
		if err != nil {
			slog.Warn(profileEnv+": no heap profile", "err", err)
			return
		}
		defer heap.Close()
		runtime.GC()
		if err := pprof.Lookup("heap").WriteTo(heap, 0); err != nil {
			slog.Warn(profileEnv+": no heap profile", "err", err)
		}
	}
}
