//go:build !linux

package children

import (
	"os/exec"
	"strconv"
	"syscall"
)

// token names process pid as an owner. Without /proc there is no start time
// to tell a pid used again apart, so no orphan is ever told apart either.
func token(pid int) string { return strconv.Itoa(pid) }

// ownerAlive is always true here: without /proc nothing is known to be
// abandoned, and nothing is removed.
func ownerAlive(string) bool { return true }

// prepare puts cmd in a process group of its own where the system has them;
// there is no parent-death signal outside Linux.
func prepare(cmd *exec.Cmd, _ syscall.Signal) { setpgid(cmd) }

// EndOrphans finds nothing outside Linux (it needs /proc).
func EndOrphans() []Orphan { return nil }

// EndRemnants does nothing outside Linux.
func EndRemnants(int) {}
