package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/mark3labs/mcp-go/server"
)

// shutdownGrace is how long calls in flight may go on once a shutdown starts
// (a signal, stdin closing); the ones still running then are stopped and
// answer that the server is shutting down. With the browsers' own shutdown
// after it, the server exits well within 10 s.
const shutdownGrace = 3 * time.Second

// serveStdio serves MCP on stdin and stdout until a signal (ctx ends) or stdin
// closes. Either way, calls in flight finish (or are stopped, within
// shutdownGrace) and their answers are written before it returns.
func serveStdio(ctx context.Context, st *stack) error {
	stdio := server.NewStdioServer(st.srv.MCP())
	stdio.SetErrorLogger(log.New(os.Stderr, "mcp: ", 0))
	server.WithWorkerPoolSize(16)(stdio)
	// The transport's own context is ended only once the calls are done:
	// ending it stops the calls in flight without an answer.
	lctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	var once sync.Once
	shutdown := func(reason string, grace time.Duration) {
		once.Do(func() {
			slog.Debug("shutting down", "reason", reason)
			st.srv.Shutdown(grace, reason)
		})
	}
	go func() {
		select {
		case <-ctx.Done():
			shutdown("signal", shutdownGrace)
			stop()
		case <-lctx.Done():
		}
	}()
	slog.Debug("serving MCP on stdio")
	in := &drainOnEOF{r: os.Stdin}
	in.drain = func() {
		// The calls read get the grace to be answered before the shutdown
		// refuses the ones not begun and stops the rest: a client that
		// writes its calls and closes stdin (a script piped in) gets them
		// run. No call can come after the end of the input.
		wctx, cancel := context.WithTimeout(ctx, shutdownGrace)
		defer cancel()
		start := time.Now()
		st.srv.WaitCallsAnswered(wctx, in.calls)
		shutdown("stdin closed", max(0, shutdownGrace-time.Since(start)))
	}
	err := stdio.Listen(lctx, in, os.Stdout)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// drainOnEOF passes reads through, but holds back the end of its input until
// drain has returned: the transport stops every call the moment it sees the
// end, and the calls in flight must answer first. It counts the tool calls
// it passes (whole lines, as the transport reads them), for drain.
type drainOnEOF struct {
	r     io.Reader
	drain func()
	calls int64
	line  []byte // the start of a line not yet ended
}

func (d *drainOnEOF) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.count(p[:n])
	if err == io.EOF && n == 0 {
		d.drain()
	}
	return n, err
}

// count counts the tool calls among the lines b ends.
func (d *drainOnEOF) count(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			d.line = append(d.line, b...)
			return
		}
		line := b[:i]
		if len(d.line) > 0 {
			line = append(d.line, line...)
		}
		if tools.IsToolCallRequest(line) {
			d.calls++
		}
		d.line, b = d.line[:0], b[i+1:]
	}
}
