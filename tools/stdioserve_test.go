package tools

import (
	"context"
	"io"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// oneStdio lets one in-process stdio server run at a time in this package's
// tests: mcp-go's stdio server keeps a single session for the whole process
// (its writer, its notification channel), so two at once send each other's
// progress notifications and sampling requests down the wrong pipe. A real
// server has one stdio; parallel tests here had several.
var oneStdio sync.Mutex

// serveStdio serves s over the pipe ends stdin and stdout, alone in this
// process, until the returned stop is called (or the test ends). stop closes
// both ends, so no write of the server's waits on a reader that has gone, and
// returns once the server has let go of the process's stdio session.
func serveStdio(t *testing.T, s *Server, stdin *io.PipeReader, stdout *io.PipeWriter) (stop func()) {
	t.Helper()
	oneStdio.Lock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = server.NewStdioServer(s.MCP()).Listen(ctx, stdin, stdout)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			_ = stdin.Close()
			_ = stdout.Close()
			<-done
			oneStdio.Unlock()
		})
	}
	t.Cleanup(stop)
	return stop
}
