package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/floorbench/floorsteps"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/devtool"
	"github.com/mafredri/cdp/rpcc"
)

// benchFlags are the flags mcpbench.mjs gives every server's browser
// (CHROME_FLAGS); the floor's browser gets exactly these and a fresh profile.
var benchFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
}

// browser is one Chromium with one tab, driven over that tab's own websocket.
type browser struct {
	cmd     *exec.Cmd
	profile string
	conn    *rpcc.Conn
	c       *cdp.Client
}

func launch(ctx context.Context, path string) (*browser, error) {
	profile, err := os.MkdirTemp("", "floorbench-")
	if err != nil {
		return nil, err
	}
	args := append(append([]string{}, benchFlags...), "--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	cmd := exec.Command(path, args...)
	inGroup(cmd)
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(profile)
		return nil, fmt.Errorf("launch %s: %w", path, err)
	}
	b := &browser{cmd: cmd, profile: profile}
	port, err := activePort(ctx, profile)
	if err != nil {
		b.close()
		return nil, err
	}
	target, err := devtool.New("http://127.0.0.1:"+port).Get(ctx, devtool.Page)
	if err != nil {
		b.close()
		return nil, fmt.Errorf("find the tab: %w", err)
	}
	b.conn, err = rpcc.DialContext(ctx, target.WebSocketDebuggerURL, rpcc.WithWriteBufferSize(1<<20))
	if err != nil {
		b.close()
		return nil, fmt.Errorf("connect to the tab: %w", err)
	}
	b.c = cdp.NewClient(b.conn)
	if err := b.c.Page.Enable(ctx); err != nil {
		b.close()
		return nil, fmt.Errorf("enable the Page domain: %w", err)
	}
	return b, nil
}

// activePort waits for Chromium to write the port it listens on.
func activePort(ctx context.Context, profile string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		if b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil {
			if port, _, ok := strings.Cut(string(b), "\n"); ok && port != "" {
				return port, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("the browser wrote no DevToolsActivePort: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (b *browser) close() {
	if b.conn != nil {
		_ = b.conn.Close()
	}
	if b.cmd.Process != nil {
		killGroup(b.cmd)
		_ = b.cmd.Wait()
	}
	_ = os.RemoveAll(b.profile)
}

// loaded starts listening for the next load event: call it before the action
// that loads a document, then wait on what it returns.
func (b *browser) loaded(ctx context.Context) (wait func() error, err error) {
	return floorsteps.Loaded(ctx, b.c)
}

// navigate loads url and waits for its load event.
func (b *browser) navigate(ctx context.Context, url string) error {
	return floorsteps.Navigate(ctx, b.c, url)
}
