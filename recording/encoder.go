package recording

import (
	"bytes"
	"os/exec"
	"syscall"

	"github.com/cdpmcp/cdpmcp/internal/children"
)

// runEncoder runs ffmpeg and returns what it printed. It is a child that dies
// with cdpmcp, marked so that the next cdpmcp ends it should it survive; it
// is in a process group of its own, so a Ctrl-C meant for the server (which
// then shuts down in order) does not cut a video short.
func runEncoder(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	if err := children.Start(cmd, syscall.SIGKILL, func(err error) { done <- err }); err != nil {
		return nil, err
	}
	err := <-done
	return out.Bytes(), err
}
