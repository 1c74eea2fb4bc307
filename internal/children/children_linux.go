package children

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// token names process pid as an owner, or "" when it does not run (an exited
// process its parent has not reaped yet does not).
func token(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// pid (comm) state ppid … ; starttime is the 22nd field, the 20th after comm.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || f[0] == "Z" {
		return ""
	}
	return strconv.Itoa(pid) + "." + f[19]
}

// ownerAlive reports whether the cdpmcp an owner token names still runs.
func ownerAlive(owner string) bool {
	pid, _, _ := strings.Cut(owner, ".")
	n, err := strconv.Atoi(pid)
	return err == nil && n > 0 && token(n) == owner
}

// prepare puts cmd in a process group of its own, sent sig if we die.
func prepare(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = sig
}

// EndOrphans kills the process groups of processes marked as started by a
// cdpmcp that no longer runs, and returns what it found. Group leaders are
// ended with their groups; a marked process outside such a group (Chromium's
// crash handler starts a session of its own) is ended alone.
func EndOrphans() []Orphan {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var out []Orphan
	alive := map[string]bool{}
	for _, dir := range procs {
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join(dir, "environ"))
		if err != nil {
			continue
		}
		owner := ownerIn(env)
		if owner == "" {
			continue
		}
		running, seen := alive[owner]
		if !seen {
			pid, _, _ := strings.Cut(owner, ".")
			n, _ := strconv.Atoi(pid)
			running = n > 0 && token(n) == owner
			alive[owner] = running
		}
		if running {
			continue
		}
		o := Orphan{PID: pid}
		if b, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
			args := strings.Split(string(b), "\x00")
			o.Name = filepath.Base(args[0])
			for _, a := range args {
				if v, ok := strings.CutPrefix(a, "--user-data-dir="); ok {
					o.Profile = v
				}
			}
		}
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		} else {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		out = append(out, o)
	}
	return out
}

// EndRemnants kills what is left of process group pgid once its leader is
// gone: a group's id is not given to another process while any member is
// alive, so the members are the ones the leader started. A group whose
// leader runs is left alone (the leader, if ours, is found by its mark).
func EndRemnants(pgid int) {
	if pgid <= 0 || token(pgid) != "" {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
