//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// inGroup starts cmd in a process group of its own, so that ending it ends
// the browser's helpers too.
func inGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup ends cmd's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
