//go:build unix

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"syscall"
	"time"
)

var urlLine = regexp.MustCompile(`msg="serving MCP over streamable HTTP".* url=(\S+)`)

// startServer starts `cdpmcp serve --http 127.0.0.1:0` with a TMPDIR and a
// data dir of its own and a marker flag on its browser, and waits for the
// address it serves on.
func startServer(bin string) (*server, error) {
	tmp, err := os.MkdirTemp("", "cdpmcp-soak-")
	if err != nil {
		return nil, err
	}
	s := &server{marker: fmt.Sprintf("--cdpmcp-soak=%d", os.Getpid()), tmp: tmp}
	s.cmd = exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--headless", "--browser-arg="+s.marker, "--max-sessions", "64")
	s.cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "XDG_STATE_HOME="+tmp)
	pipe, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if m := urlLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case s.url = <-urls:
		return s, nil
	case <-time.After(time.Minute):
		s.stop()
		return nil, fmt.Errorf("%s did not say where it serves within a minute", bin)
	}
}

// stop ends the server as a user would (SIGTERM) and removes its TMPDIR.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	_ = os.RemoveAll(s.tmp)
}
