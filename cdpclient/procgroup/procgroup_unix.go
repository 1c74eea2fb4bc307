//go:build unix

package procgroup

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Setup makes cmd, not yet started, lead a process group of its own.
func Setup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// Terminate asks every process of group pgid to end (SIGTERM).
func Terminate(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGTERM) }

// Kill ends every process of group pgid at once (SIGKILL).
func Kill(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// Leader reports whether process pid leads its own group, as a process
// started with Setup does.
func Leader(pid int) bool {
	pgid, err := syscall.Getpgid(pid)
	return err == nil && pgid == pid
}

// Alive reports whether a process of group pgid still runs. Zombies do not
// count: the browser's children are orphaned when it exits and reaped by init,
// which in some containers takes seconds, and a zombie holds no files.
func Alive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil || len(dirs) == 0 {
		return true // no /proc: trust kill
	}
	want := strconv.Itoa(pgid)
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may contain spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		if f := strings.Fields(string(b[i+1:])); len(f) >= 3 && f[0] != "Z" && f[2] == want {
			return true
		}
	}
	return false
}
