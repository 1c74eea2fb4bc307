//go:build windows

package procgroup

import (
	"os/exec"
	"strconv"
	"syscall"
)

// Setup makes cmd, not yet started, a process group of its own, so that a
// Ctrl-C in cdpmcp's console reaches cdpmcp, which closes the browser, and not
// the browser directly.
func Setup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// Terminate does nothing on Windows, which has no signal to ask a process to
// end: cdpmcp asks the browser itself (Browser.close) before it ends the group.
func Terminate(int) {}

// Kill ends process pgid and every process it started (taskkill /T /F). Call
// it only while the leader runs: once it has exited, its id may be reused.
func Kill(pgid int) {
	cmd := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pgid))
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
	_ = cmd.Run()
}

// Leader reports false: Windows has no process groups to recognise a browser
// that an earlier cdpmcp started by.
func Leader(int) bool { return false }

// Alive reports false. On Windows a browser's other processes end with it
// (Chromium keeps them in a job that dies with the browser), so the group is
// gone once its leader, which the caller waits for, has exited; asking by
// process id after that could find another program that reused the id.
func Alive(int) bool { return false }
