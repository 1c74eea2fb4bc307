//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

// sample is one look at the server and its browser.
type sample struct {
	what     string
	at       time.Time
	calls    int64
	rssKiB   int
	threads  int
	fds      int
	procs    int // the browser's process group
	contexts int // besides the default one
	tabs     int
}

// probe looks at the server's process and, through a DevTools connection of
// its own, at its browser.
type probe struct {
	srv  *server
	pgid int
	ws   *websocket.Conn
	id   int
}

func newProbe(srv *server) (*probe, error) {
	p := &probe{srv: srv}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var profile string
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(srv.marker)) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		if g, err := syscall.Getpgid(pid); err == nil && g == pid {
			p.pgid = pid
			for _, a := range strings.Split(string(b), "\x00") {
				if v, ok := strings.CutPrefix(a, "--user-data-dir="); ok {
					profile = v
				}
			}
		}
	}
	if p.pgid == 0 || profile == "" {
		return nil, fmt.Errorf("the server's browser (%s) was not found", srv.marker)
	}
	b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("DevToolsActivePort: %q", b)
	}
	if p.ws, _, err = websocket.DefaultDialer.Dial("ws://127.0.0.1:"+lines[0]+lines[1], nil); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *probe) close() { _ = p.ws.Close() }

// cdp sends a browser-level command and decodes its result.
func (p *probe) cdp(method string, out any) error {
	p.id++
	if err := p.ws.WriteJSON(map[string]any{"id": p.id, "method": method, "params": map[string]any{}}); err != nil {
		return err
	}
	_ = p.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var msg struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := p.ws.ReadJSON(&msg); err != nil {
			return err
		}
		if msg.ID != p.id {
			continue
		}
		if msg.Error != nil {
			return fmt.Errorf("%s: %s", method, msg.Error)
		}
		return json.Unmarshal(msg.Result, out)
	}
}

func (p *probe) sample(what string, calls int64) sample {
	s := sample{what: what, at: time.Now(), calls: calls}
	pid := p.srv.cmd.Process.Pid
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) >= 2 && f[0] == "VmRSS:":
				s.rssKiB, _ = strconv.Atoi(f[1])
			case len(f) >= 2 && f[0] == "Threads:":
				s.threads, _ = strconv.Atoi(f[1])
			}
		}
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	s.fds = len(fds)
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		n, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if g, err := syscall.Getpgid(n); err == nil && g == p.pgid {
			s.procs++
		}
	}
	var ctxs struct {
		IDs []string `json:"browserContextIds"`
	}
	if p.cdp("Target.getBrowserContexts", &ctxs) == nil {
		s.contexts = len(ctxs.IDs)
	}
	var targets struct {
		Infos []struct {
			Type string `json:"type"`
		} `json:"targetInfos"`
	}
	if p.cdp("Target.getTargets", &targets) == nil {
		for _, t := range targets.Infos {
			if t.Type == "page" {
				s.tabs++
			}
		}
	}
	return s
}

// settle waits up to d for the browser to hold no more than base did (no
// sessions' contexts at all when base is nil), and says what is left if not.
func (p *probe) settle(d time.Duration, base *sample) error {
	deadline := time.Now().Add(d)
	for {
		s := p.sample("", 0)
		ok := s.contexts == 0
		if base != nil {
			ok = s.contexts <= base.contexts && s.tabs <= base.tabs && s.procs <= base.procs && s.fds <= base.fds+4
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			if base == nil {
				return fmt.Errorf("%d browser contexts still open", s.contexts)
			}
			return fmt.Errorf("not back to where it was %s after the sessions ended: contexts %d (was %d), tabs %d (%d), browser processes %d (%d), server files %d (%d)",
				d, s.contexts, base.contexts, s.tabs, base.tabs, s.procs, base.procs, s.fds, base.fds)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
