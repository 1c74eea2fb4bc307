package tools

import (
	"context"
	"log/slog"
	"time"
)

// leaveNoDialog dismisses the dialogs left open in the tabs of a browser
// cdpmcp attached to, before it lets go of it. While cdpmcp is attached, the
// browser hands it the tabs' dialogs instead of showing them: one left
// unanswered (a "leave site?" prompt cdpmcp left for handleDialog) would
// hold the person's tab after cdpmcp has gone. Dismissing keeps the page
// where it is: a "leave site?" prompt dismissed stays, nothing is lost.
func (s *Server) leaveNoDialog() {
	b := s.sessions.mgr.Current()
	if b == nil || b.Launched() || !b.Alive() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, p := range b.Default().Pages() {
		if d := p.Dialog(); d != nil {
			if _, err := p.HandleDialog(ctx, false, ""); err == nil {
				slog.Info("dismissed a dialog left open in a tab of the attached browser", "page", p.ID, "type", d.Type)
			}
		}
	}
}
