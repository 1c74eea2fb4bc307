package agentloop

import (
	"log/slog"
	"os"
)

// With AGENTLOOP_PHASES set, the tests and benchmarks log at debug level to
// stderr: each agent step says where its time went (observe, walk, prompt,
// model, the actions' queue, watch, act and settle).
//
//	AGENTLOOP_PHASES=1 go test -run '^$' -bench AgentStep ./agentloop 2>&1 | grep 'agent step'
func init() {
	if os.Getenv("AGENTLOOP_PHASES") != "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
}
