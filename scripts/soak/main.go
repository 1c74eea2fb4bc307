//go:build unix

// Command soak runs one `cdpmcp serve --http` under load for a stretch and
// reports whether it holds: eight HTTP sessions (by default) make tool calls
// without a pause, each ending after a few dozen calls and a new one taking
// its place; then every session ends, and a few hundred more open and close
// in a row. It samples the server's memory, threads and open files and the
// browser's processes, contexts and tabs, and writes a report. It exits
// non-zero on an unexpected error or when something does not return to its
// level before the load. `make soak` runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func main() {
	bin := flag.String("bin", "bin/cdpmcp", "the cdpmcp binary to soak")
	duration := flag.Duration("duration", 3*time.Minute, "how long the sessions make calls")
	sessions := flag.Int("sessions", 8, "sessions calling at once")
	perSession := flag.Int("calls-per-session", 40, "calls a session makes before it ends and another takes its place")
	churn := flag.Int("churn", 200, "sessions opened and closed in a row after the load")
	out := flag.String("out", "results/soak", "directory for report.md")
	flag.Parse()
	if err := run(*bin, *duration, *sessions, *perSession, *churn, *out); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func run(bin string, duration time.Duration, sessions, perSession, churn int, out string) error {
	site, err := fixtures.Start()
	if err != nil {
		return err
	}
	defer site.Close()
	srv, err := startServer(bin)
	if err != nil {
		return err
	}
	defer srv.stop()
	ctx := context.Background()

	// Warm up: the browser starts with the first session.
	warm, err := connect(ctx, srv.url)
	if err != nil {
		return err
	}
	if _, err := call(ctx, warm, "navigate", map[string]any{"url": site.URL("/home.html")}); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	_ = warm.Close()
	probe, err := newProbe(srv)
	if err != nil {
		return err
	}
	defer probe.close()
	if err := probe.settle(30*time.Second, nil); err != nil {
		return fmt.Errorf("before the load: %w", err)
	}
	base := probe.sample("before", 0)

	var calls, failures, opened atomic.Int64
	var firstErr firstError
	samples := []sample{base}
	loadCtx, stop := context.WithTimeout(ctx, duration)
	defer stop()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range sessions {
		wg.Go(func() {
			for loadCtx.Err() == nil {
				c, err := connect(ctx, srv.url)
				if err != nil {
					failures.Add(1)
					firstErr.set(err)
					time.Sleep(time.Second)
					continue
				}
				opened.Add(1)
				for i := 0; i < perSession && loadCtx.Err() == nil; i++ {
					step := steps[i%len(steps)]
					if _, err := call(ctx, c, step.tool, step.args(site)); err != nil {
						failures.Add(1)
						firstErr.set(fmt.Errorf("session worker %d, %s: %w", w, step.tool, err))
					}
					calls.Add(1)
				}
				_ = c.Close()
			}
		})
	}
	tick := time.NewTicker(duration / 12)
	for done := false; !done; {
		select {
		case <-loadCtx.Done():
			done = true
		case <-tick.C:
			samples = append(samples, probe.sample(fmt.Sprintf("load %s", time.Since(start).Round(time.Second)), calls.Load()))
		}
	}
	tick.Stop()
	wg.Wait()
	loadTime := time.Since(start)
	samples = append(samples, probe.sample("load ended", calls.Load()))

	// Every session has ended: the browser gives back what they held.
	settleErr := probe.settle(60*time.Second, &base)
	samples = append(samples, probe.sample("sessions ended", calls.Load()))

	// Hundreds of sessions opened and closed in a row.
	churnStart := time.Now()
	for range churn {
		c, err := connect(ctx, srv.url)
		if err == nil {
			_, err = call(ctx, c, "getUrl", nil)
			_ = c.Close()
		}
		if err != nil {
			failures.Add(1)
			firstErr.set(fmt.Errorf("churn: %w", err))
		}
	}
	churnTime := time.Since(churnStart)
	churnErr := probe.settle(60*time.Second, &base)
	final := probe.sample(fmt.Sprintf("after %d more sessions", churn), calls.Load())
	samples = append(samples, final)

	r := report{samples: samples, calls: calls.Load(), failures: failures.Load(), sessions: opened.Load(), churn: churn,
		load: loadTime, churnTime: churnTime, concurrent: sessions}
	r.firstErr = firstErr.get()
	var problems []error
	if r.failures > 0 {
		problems = append(problems, fmt.Errorf("%d calls failed (first: %s)", r.failures, r.firstErr))
	}
	for _, err := range []error{settleErr, churnErr} {
		if err != nil {
			problems = append(problems, err)
		}
	}
	if err := r.memoryLevelsOff(); err != nil {
		problems = append(problems, err)
	}
	r.problems = problems
	text := r.markdown()
	fmt.Print(text)
	if err := os.MkdirAll(out, 0o755); err == nil {
		_ = os.WriteFile(filepath.Join(out, "report.md"), []byte(text), 0o644)
	}
	return errors.Join(problems...)
}

// firstError keeps the first error the workers met.
type firstError struct {
	mu  sync.Mutex
	msg string
}

func (f *firstError) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.msg == "" {
		f.msg = err.Error()
	}
}

func (f *firstError) get() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.msg
}

// step is one tool call of a session's cycle.
type step struct {
	tool string
	args func(*fixtures.Server) map[string]any
}

func fixed(m map[string]any) func(*fixtures.Server) map[string]any {
	return func(*fixtures.Server) map[string]any { return m }
}

func page(path string) func(*fixtures.Server) map[string]any {
	return func(s *fixtures.Server) map[string]any { return map[string]any{"url": s.URL(path)} }
}

// steps is what a session does, over and over: what a model does on a page.
var steps = []step{
	{"navigate", page("/actions.html")},
	{"snapshot", fixed(nil)},
	{"click", fixed(map[string]any{"selector": "#inc"})},
	{"type", fixed(map[string]any{"selector": "#name", "text": "soak", "clear": true})},
	{"evaluate", fixed(map[string]any{"expression": "document.querySelector('#count').textContent"})},
	{"scroll", fixed(map[string]any{"direction": "down"})},
	{"screenshot", fixed(nil)},
	{"navigate", page("/second.html")},
	{"getContent", fixed(nil)},
	{"newPage", page("/home.html")},
	{"listPages", fixed(nil)},
	{"closePage", fixed(nil)},
	{"snapshot", fixed(map[string]any{"diff": true})},
}

func connect(ctx context.Context, url string) (*client.Client, error) {
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "soak", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// call runs one tool; an error result is a failure of the soak, as is a
// protocol error.
func call(ctx context.Context, c *client.Client, tool string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	var text string
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		return text, errors.New(text)
	}
	return text, nil
}

// server is the cdpmcp process under soak.
type server struct {
	cmd    *exec.Cmd
	url    string
	marker string
	tmp    string
}
