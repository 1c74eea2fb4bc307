// Package procgroup tells whether a process group still has running processes.
package procgroup

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

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
