package liveview

import (
	"context"
	"encoding/base64"
	"net/http"
	"time"
)

// In a fleet, a job that waits for a person waits on the worker that holds
// it, and its link is that worker's live view. A link opened on another
// process's view (a serve in front of the workers, a link whose host was
// rewritten) finds no offer there: told where the offer lives, the view
// sends the browser on to it rather than say the link is wrong.

// Elsewhere finds where an offer this process did not make lives: the URL
// of its view, "" when none is known.
type Elsewhere func(ctx context.Context, token string) string

// SetElsewhere gives the view a way to find the offers of other processes.
func (s *Server) SetElsewhere(f Elsewhere) {
	s.mu.Lock()
	s.elsewhere = f
	s.mu.Unlock()
}

// sendOn redirects to where token's offer lives, if another process made it;
// false when none is known.
func (s *Server) sendOn(w http.ResponseWriter, r *http.Request, token string) bool {
	s.mu.Lock()
	f := s.elsewhere
	s.mu.Unlock()
	if f == nil || len(token) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	u := f(ctx, token)
	if u == "" || u == s.base+"/live/"+token {
		return false
	}
	http.Redirect(w, r, u, http.StatusFound)
	return true
}
