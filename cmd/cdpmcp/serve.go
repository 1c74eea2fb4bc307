package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/prom"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// stack is the wired server: browser manager, tools and the trace file.
type stack struct {
	mgr   *cdpclient.Manager
	srv   *tools.Server
	trace *traceWriter
	jobs  *horde // nil without jobs
}

func build(cfg config) (*stack, error) {
	st := &stack{}
	if cfg.trace != "" {
		tw, err := openTrace(cfg.trace, cfg.secrets)
		if err != nil {
			return nil, err
		}
		st.trace = tw
		cfg.browser.Tracer = tw
		cfg.tools.Trace = tw.traceTool
	}
	st.mgr = cdpclient.NewManager(cfg.browser)
	if cfg.live != nil {
		cfg.tools.LiveView, cfg.tools.HandoffTimeout = cfg.live, cfg.handoff.timeout
	}
	if cfg.jobs.dataDir != "" && !cfg.jobs.disabled {
		if cfg.live != nil {
			// A job waiting for a person offers its tab in the live view.
			cfg.tools.JobHandoff = tools.NewJobHandoff(cfg.live, func(ctx context.Context) (*jobs.Queue, error) { return st.jobs.queue(ctx) })
		}
		st.jobs = startHorde(cfg)
		cfg.tools.Jobs = st.jobs.queue
		if cfg.live != nil && cfg.jobs.db != "" {
			// A fleet's job waits on the worker that holds it: a link to
			// it opened here is sent on there.
			cfg.live.SetElsewhere(waitingLink(st.jobs.queue))
		}
		if err := startJobs(&cfg, st); err != nil {
			return nil, err
		}
	}
	st.srv = tools.New(cfg.tools, st.mgr)
	return st, nil
}

// close shuts everything down: sessions, then the browser (a launched one is
// ended with its process group and temporary profile), then the trace file.
func (st *stack) close() {
	start := time.Now()
	st.srv.Close()
	slog.Debug("sessions closed", "ms", time.Since(start).Milliseconds())
	// The job browsers and the tools' browser end side by side.
	var wg sync.WaitGroup
	if st.jobs != nil {
		wg.Go(st.jobs.close)
	}
	wg.Go(st.mgr.Close)
	wg.Wait()
	slog.Debug("browsers closed", "ms", time.Since(start).Milliseconds())
	if st.trace != nil {
		st.trace.close()
	}
}

func serve(ctx context.Context, cfg config) error {
	var ln net.Listener
	if cfg.http != "" {
		// Listen first: pages must never reach this server's own port, and the
		// browser's egress proxy learns it before the browser starts.
		addr, err := listenAddr(cfg.http, !cfg.principals.empty())
		if err != nil {
			return err
		}
		if ln, err = net.Listen("tcp", addr); err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("--http %s: the address is in use (another cdpmcp or program listens there); pick another port, e.g. --http 127.0.0.1:%d (make run PORT=%d)", cfg.http, nextPort(addr), nextPort(addr))
			}
			return fmt.Errorf("--http %s: %w", cfg.http, err)
		}
		defer ln.Close()
		cfg.browser.Reserved = append(cfg.browser.Reserved, ln.Addr().String())
	}
	endOrphans()
	if cfg.browser.Endpoint != "" || cfg.browser.AutoConnect {
		if err := checkEndpoint(ctx, cfg.browser); err != nil {
			return err
		}
	}
	fleetServeBrowser(&cfg)
	// Before the browser: a live view listener of its own is reserved too.
	lv, stopLive, err := openLiveView(&cfg, ln)
	if err != nil {
		return err
	}
	defer stopLive()
	cfg.live = lv
	st, err := build(cfg)
	if err != nil {
		return err
	}
	defer st.close()
	// Runs a server killed earlier left with a record and no report get
	// theirs, in the background: the server does not wait for them.
	go agentloop.RecoverReports(cmp.Or(cfg.tools.Agent.Loop.RunDir, agentloop.DefaultRunDir()))
	// ctx ends on SIGINT or SIGTERM (see main): from then on the queue
	// claims nothing, while calls in flight get their grace.
	if st.jobs != nil {
		stop := context.AfterFunc(ctx, st.jobs.stopClaiming)
		defer stop()
	}
	if ln != nil {
		return serveHTTP(ctx, cfg, st, ln)
	}
	return serveStdio(ctx, st)
}

// sessionVersions are the protocol versions that have sessions. Each HTTP
// session gets its own browser context; under the stateless 2026-07-28 core
// every request would be a session of its own with no id, so all clients would
// share one context. Clients that offer it fall back to the initialize handshake.
func sessionVersions() []string {
	var out []string
	for _, v := range mcp.ValidProtocolVersions {
		if !mcp.IsModernProtocol(v) {
			out = append(out, v)
		}
	}
	return out
}

func serveHTTP(ctx context.Context, cfg config, st *stack, ln net.Listener) error {
	handler := server.NewStreamableHTTPServer(st.srv.MCP(), server.WithEndpointPath("/mcp"),
		server.WithStreamableHTTPProtocolVersions(sessionVersions()...))
	gate := newSessionGate(handler, cfg.sessions)
	defer gate.Close()
	mux := http.NewServeMux()
	mux.Handle("/mcp", guardHTTP(limitBodies(gate, cfg.requests), cfg.principals))
	if cfg.live != nil {
		// The live view's token is its key: a person's browser has no bearer token.
		mux.Handle("/live/", cfg.live.Handler())
	}
	if st.jobs != nil {
		mux.Handle("/metrics", guardHTTP(metricsHandler(st.jobs.queue, func(pw *prom.Writer) {
			pw.Family("cdpmcp_session_tabs_open", "gauge", "Tabs the MCP sessions of this serve have open now.", prom.Sample{Value: float64(st.srv.OpenTabs())})
		}), cfg.principals))
	}
	hs := newHTTPServer(mux, cfg.requests)
	// Said once the port is bound, never before.
	url := "http://" + ln.Addr().String() + "/mcp"
	slog.Info("serving MCP over streamable HTTP", append(connectHint(url, cfg.principals), "stop", "Ctrl-C")...)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Debug("shutting down", "reason", "signal")
	st.srv.Shutdown(shutdownGrace, "signal")
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = handler.Shutdown(sctx)
	return hs.Shutdown(sctx)
}

// nextPort is the port after addr's, to suggest when addr is taken.
func nextPort(addr string) int {
	_, port, _ := net.SplitHostPort(addr)
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n >= 65535 {
		return 8932
	}
	return n + 1
}
