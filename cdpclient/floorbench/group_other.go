//go:build !unix

package main

import "os/exec"

// inGroup leaves cmd as it is: a process group is a Unix notion.
func inGroup(*exec.Cmd) {}

// killGroup ends cmd (Chromium ends its helpers when its main process goes).
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
