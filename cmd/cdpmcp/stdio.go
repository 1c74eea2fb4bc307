package main

import (
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"os"
	"sync"
	"time"

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
	shutdown := func(reason string) {
		once.Do(func() {
			slog.Debug("shutting down", "reason", reason)
			st.srv.Shutdown(shutdownGrace, reason)
		})
	}
	go func() {
		select {
		case <-ctx.Done():
			shutdown("signal")
			stop()
		case <-lctx.Done():
		}
	}()
	slog.Debug("serving MCP on stdio")
	err := stdio.Listen(lctx, &drainOnEOF{r: os.Stdin, drain: func() { shutdown("stdin closed") }}, os.Stdout)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// drainOnEOF passes reads through, but holds back the end of its input until
// drain has returned: the transport stops every call the moment it sees the
// end, and the calls in flight must answer first.
type drainOnEOF struct {
	r     io.Reader
	drain func()
}

func (d *drainOnEOF) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err == io.EOF && n == 0 {
		d.drain()
	}
	return n, err
}
