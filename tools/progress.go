package tools

import (
	"context"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/mark3labs/mcp-go/mcp"
)

// withProgress lets an action's progress reach the client as
// notifications/progress, when the request asked for them with a progress
// token. Progress is best effort: a notification that cannot be sent is
// dropped.
func (s *Server) withProgress(ctx context.Context, req mcp.CallToolRequest) context.Context {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return ctx
	}
	token := req.Params.Meta.ProgressToken
	return actions.WithProgress(ctx, func(done, total int, msg string) {
		params := map[string]any{"progressToken": token, "progress": done, "message": msg}
		if total > 0 {
			params["total"] = total
		}
		if err := s.notify(ctx, "notifications/progress", params); err != nil {
			slog.Debug("progress notification", "err", err)
		}
	})
}
